/**
 * What main.ts does to the command line before @effect/cli reads it: pure functions of argv,
 * each for one thing @effect/cli cannot be told.
 */
import { AutoCorrect, CliConfig } from "@effect/cli"
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

/** @effect/cli's own options, which may come before the command: these take a value. */
const BEFORE_COMMAND_WITH_VALUE = ["--db", "--completions", "--log-level"]
/** ...and these end the command line's meaning (help, the version, the wizard). */
const BEFORE_COMMAND_FLAGS = new Set(["--help", "-h", "--version", "--wizard"])

/**
 * What is wrong with the start of a command line (`args`, after `mem`), said as what to type
 * instead, or undefined. @effect/cli answers both mistakes with "Invalid subcommand" and the
 * list of every command:
 * - an option of a command before the command's name (`mem --json stats`): only --db goes there;
 * - a command that does not exist (`mem serch`): the nearest one is suggested.
 */
export const commandLineProblem = (args: ReadonlyArray<string>, commands: ReadonlyArray<string>): string | undefined => {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--" || BEFORE_COMMAND_FLAGS.has(arg)) return undefined
    if (BEFORE_COMMAND_WITH_VALUE.includes(arg)) i++
    else if (BEFORE_COMMAND_WITH_VALUE.some((option) => arg.startsWith(`${option}=`))) continue
    else if (arg.startsWith("-")) {
      const command = args.slice(i + 1).find((a) => commands.includes(a))
      return command === undefined
        ? `${arg} is an option of a command and goes after its name, as in 'mem stats --json'; only --db comes before it`
        : `${arg} goes after the command name: mem ${command} ${arg}; only --db comes before it`
    } else {
      if (commands.includes(arg)) return undefined
      const meant = nearest(arg, commands)
      return `'${arg}' is not a mem command; ${meant === undefined ? "" : `did you mean '${meant}'? `}mem --help lists them`
    }
  }
  return undefined
}

/** The command `word` was most likely meant to be: within two edits, else the only one it begins. */
const nearest = (word: string, commands: ReadonlyArray<string>): string | undefined => {
  const ranked = commands
    .map((command) => ({ command, distance: AutoCorrect.levensteinDistance(word, command, CliConfig.defaultConfig) }))
    .sort((a, b) => a.distance - b.distance)
  if (ranked[0] !== undefined && ranked[0].distance <= 2) return ranked[0].command
  const started = commands.filter((command) => command.startsWith(word))
  return started.length === 1 ? started[0] : undefined
}
