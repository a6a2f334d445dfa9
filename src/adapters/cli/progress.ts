import { Effect } from "effect"

/** A progress bar on stderr, drawn only when stderr is a terminal (never into pipes or logs). */
export const progressBar = (label: string, stream: NodeJS.WriteStream = process.stderr) => {
  if (!stream.isTTY) return { update: (_done: number, _total: number) => {}, done: () => {} }
  let last = -1
  return {
    update: (done: number, total: number) => {
      const ratio = total > 0 ? Math.min(1, done / total) : 1
      const percent = Math.floor(ratio * 100)
      if (percent === last) return
      last = percent
      const width = 30
      const filled = Math.round(ratio * width)
      stream.write(`\r${label} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${percent}% ${Math.floor(done)}/${total}`)
    },
    done: () => {
      if (last >= 0) stream.write("\n")
    }
  }
}

/** A line on stderr while something slow runs, wiped when it ends; drawn only when stderr is a terminal. */
export const waitingLine = (text: string, stream: NodeJS.WriteStream = process.stderr) => {
  if (!stream.isTTY) return { done: () => {} }
  stream.write(text)
  return { done: () => void stream.write(`\r${" ".repeat(text.length)}\r`) }
}

/** `run`, given a progress bar labelled `label` to update, the bar ended however `run` ends. */
export const withProgress = <A, E, R>(label: string, run: (update: (done: number, total: number) => void) => Effect.Effect<A, E, R>) => {
  const bar = progressBar(label)
  return run(bar.update).pipe(Effect.ensuring(Effect.sync(bar.done)))
}

/** `effect`, with `text` on a terminal's stderr while it runs (nothing when `text` is undefined). */
export const whileWaiting = <A, E, R>(text: string | undefined, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  text === undefined
    ? effect
    : Effect.suspend(() => {
        const line = waitingLine(text)
        return Effect.ensuring(effect, Effect.sync(line.done))
      })
