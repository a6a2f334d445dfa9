/**
 * What main.ts does to the command line before @effect/cli reads it: pure functions of argv,
 * each for one thing @effect/cli cannot be told.
 */
import { tagProblem } from "../../domain/vocabulary.js"

/**
 * @effect/cli stops reading options after a lone "-" (stdin as FILE), so `mem import - --json`
 * would reject --json. "-" is only ever a positional argument; moving it last keeps its meaning.
 */
export const stdinLast = (argv: ReadonlyArray<string>): ReadonlyArray<string> =>
  argv.includes("-") ? [...argv.filter((a) => a !== "-"), "-"] : argv

/**
 * The problem of the first blank -t/--tag value, or undefined. @effect/cli drops an empty value
 * of a repeated option and trims a blank one to "", so `-t ""` would vanish while `-t "  "`
 * reached the command: looked at here, both are refused by the one tag rule. Nothing after
 * "--" is an option.
 */
export const blankTagProblem = (argv: ReadonlyArray<string>): string | undefined => {
  for (let i = 0; i < argv.length - 1; i++) {
    if (argv[i] === "--") return undefined
    if ((argv[i] === "-t" || argv[i] === "--tag") && argv[i + 1]!.trim().length === 0) return `--tag: ${tagProblem(argv[i + 1]!)}`
  }
  return undefined
}
