/**
 * Lessons a session teaches without anyone writing them down, found in the shell commands it
 * ran and how each went. Pure and deterministic: no model, commands in, lessons out.
 *
 * - A command the agent reported failed, then a different command for the same purpose (the
 *   same program and subcommand, `npm run build`, `git push`) that succeeded within the next
 *   five commands: "`X` fails with E; `Y` works". Only a clear pair counts: the same purpose
 *   failing again in between hands the lesson to that later failure; a command that succeeded
 *   when merely run again was flaky, not corrected; a multi-line script is no command to quote.
 * - A test command run at least three times in the session, once at least with a result (a
 *   test summary, or success): "Run the tests with `X`."
 */

/** One shell command and how it went (hooks/session-state.ts, or a transcript read by import). */
export interface RanCommand {
  readonly command: string
  readonly failed: boolean
  readonly error?: string
  readonly test?: boolean
}

export type Lesson =
  | { readonly kind: "command-pair"; readonly failed: string; readonly error: string; readonly worked: string; readonly text: string }
  | { readonly kind: "repeated-test"; readonly command: string; readonly times: number; readonly text: string }

/** How far after a failure its correction may come, in commands. */
export const CORRECTION_WINDOW = 5
/** How often a test command must run to count as the session's way of testing. */
export const REPEATED_TEST_RUNS = 3
const MAX_COMMAND = 300

export const sessionLessons = (runs: ReadonlyArray<RanCommand>): Lesson[] => [...commandPairs(runs), ...repeatedTests(runs)]

const commandPairs = (runs: ReadonlyArray<RanCommand>): Lesson[] =>
  runs.flatMap((run, i): Lesson[] => {
    if (!run.failed || !quotable(run.command)) return []
    const purpose = purposeOf(run.command)
    if (purpose === undefined) return []
    const next = runs.slice(i + 1, i + 1 + CORRECTION_WINDOW).find((r) => purposeOf(r.command) === purpose)
    if (next === undefined || next.failed || !quotable(next.command) || same(next.command, run.command)) return []
    const failed = plain(run.command)
    const worked = plain(next.command)
    const error = errorLine(run.error ?? "")
    const fails = error === "" ? "fails" : `fails with ${error}`
    return [{ kind: "command-pair", failed, error, worked, text: `\`${failed}\` ${fails}; \`${worked}\` works.` }]
  })

const repeatedTests = (runs: ReadonlyArray<RanCommand>): Lesson[] => {
  const byCommand = new Map<string, RanCommand[]>()
  for (const run of runs) {
    if (!quotable(run.command) || !isTestCommand(run.command)) continue
    const key = plain(run.command)
    byCommand.set(key, [...(byCommand.get(key) ?? []), run])
  }
  return [...byCommand].flatMap(([command, all]): Lesson[] =>
    all.length >= REPEATED_TEST_RUNS && all.some((r) => r.test === true || !r.failed)
      ? [{ kind: "repeated-test", command, times: all.length, text: `Run the tests with \`${command}\`.` }]
      : []
  )
}

/**
 * What a command is for: its program and subcommand (`git push`, `npm run build`, `npx vitest`),
 * read from the first step that does something (`cd dir && npm test` is `npm test`), after
 * variable assignments and `sudo`/`env`/`time`. Undefined when there is no program.
 */
export const purposeOf = (command: string): string | undefined => {
  const step = command
    .split(/&&|\|\||[;|\n]/)
    .map((s) => words(s))
    .find((w) => w.length > 0 && !SETUP.has(w[0]!))
  if (step === undefined) return undefined
  const [program, ...rest] = step
  const name = program!.split("/").pop()!
  const args = rest.filter((w) => !w.startsWith("-"))
  const sub = args[0]
  if (sub === undefined) return name
  return RUNNERS.has(sub) && args[1] !== undefined ? `${name} ${sub} ${args[1]}` : `${name} ${sub}`
}

export const isTestCommand = (command: string): boolean => (purposeOf(command) ?? "").split(" ").some((w) => TEST_WORD.test(w))

/** The line of an error that names what went wrong, quoted plainly and cut short. */
export const errorLine = (error: string): string => {
  const lines = error
    .split(/\r?\n/)
    .map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").trim())
    .filter((l) => l.length > 0 && !/^(error: )?exit code \d+$/i.test(l))
  const named = lines.find((l) => ERROR_WORDS.test(l)) ?? lines[0] ?? ""
  const text = named.replace(/`/g, "'")
  return text.length <= 160 ? text : `${text.slice(0, 159)}…`
}

const SETUP = new Set(["cd", "pushd", "export", "set", "source", ".", "true", "echo"])
const WRAPPERS = new Set(["sudo", "env", "time", "nice", "command"])
/** Words after which the next word says what is run: `npm run build`, `pnpm exec tsc`, `uv run pytest`. */
const RUNNERS = new Set(["run", "exec", "x", "dlx"])
const TEST_WORD = /^(test|tests|test:[\w:-]+|pytest|vitest|jest|mocha|rspec|phpunit|tox|ctest)$/
const ERROR_WORDS = /error|fail|fatal|not found|denied|unknown|invalid|cannot|can't|no such|missing|refused|unrecognized|undefined/i

/** The words of one step, without leading assignments and wrappers. */
const words = (step: string): string[] => {
  const all = step.trim().split(/\s+/).filter((w) => w.length > 0)
  let i = 0
  while (i < all.length && (/^\w+=/.test(all[i]!) || WRAPPERS.has(all[i]!))) i++
  return all.slice(i)
}

const plain = (command: string): string => command.replace(/\s+/g, " ").trim()
const same = (a: string, b: string): boolean => plain(a) === plain(b)
/** A one-line command short enough to quote in a memory, and holding no backtick to break the quote. */
const quotable = (command: string): boolean => !command.trim().includes("\n") && !command.includes("`") && plain(command).length <= MAX_COMMAND
