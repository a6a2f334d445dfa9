/**
 * The console @effect/cli prints through (help, --version, completion scripts, its own errors
 * about the command line), made to print the way every other line of `mem` does:
 * - without the blank line its renderer left after each text (it ends one with a newline and
 *   `console.log` adds another, so `mem --version` printed two lines);
 * - in colour only on a terminal that takes colours: never into a pipe or a file, and not
 *   when NO_COLOR is set (node's reading of NO_COLOR, FORCE_COLOR, NODE_DISABLE_COLORS, TERM).
 */
import type { Console } from "effect"

export const cliConsole = (console: Console.Console): Console.Console => ({
  ...console,
  log: (...args) => console.log(...args.map((arg) => fitFor(process.stdout, arg))),
  error: (...args) => console.error(...args.map((arg) => fitFor(process.stderr, arg)))
})

/** A text @effect/cli's renderer made, written to `stream` as `cliConsole` prints one. */
export const writeRendered = (stream: NodeJS.WriteStream, text: string): void => void stream.write(`${fitFor(stream, text)}\n`)

/** Whether `stream` is a terminal that takes colours. */
export const takesColour = (stream: NodeJS.WriteStream): boolean => stream.isTTY === true && stream.hasColors()

/** `text` without its terminal colours. */
// eslint-disable-next-line no-control-regex
export const withoutColours = (text: string): string => text.replace(/\x1b\[[0-9;]*m/g, "")

/** A text without the renderer's trailing newlines, and without colours where they are not wanted; anything else as it is. */
const fitFor = (stream: NodeJS.WriteStream, arg: unknown): unknown => {
  if (typeof arg !== "string") return arg
  const text = arg.replace(/\n+$/, "")
  return takesColour(stream) ? text : withoutColours(text)
}
