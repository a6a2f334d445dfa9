/**
 * Runs a shell command line with a pseudo-terminal as its standard output and error, through
 * util-linux `script`: for what `mem` does only for a person at a terminal (colours, progress
 * bars), which a pipe must never get. Redirect a stream inside the command line to keep it off
 * the terminal (`mem verify > out.txt` leaves only stderr on it).
 */
import { spawnSync } from "node:child_process"

export interface Screen {
  readonly code: number
  /** What the terminal showed, its \r\n line ends read as \n. */
  readonly text: string
}

export const onTerminal = (commandLine: string, env: Record<string, string> = {}): Screen => {
  // A terminal that says it has colours, unless a test says otherwise: node reads any
  // NO_COLOR or FORCE_COLOR, even an empty one, so they are removed rather than emptied; and
  // under a CI variable node gives a terminal two colours unless it knows the CI by name.
  const { NO_COLOR: _no, FORCE_COLOR: _force, NODE_DISABLE_COLORS: _disable, CI: _ci, ...inherited } = process.env
  const result = spawnSync("script", ["--quiet", "--return", "--command", commandLine, "/dev/null"], {
    encoding: "utf8",
    input: "",
    env: { ...inherited, MEMLEDGER_DB: "", TERM: "xterm-256color", ...env }
  })
  return { code: result.status ?? -1, text: result.stdout.replace(/\r\n/g, "\n") }
}

/** A command line word, single-quoted for the shell. */
export const shellQuote = (word: string): string => `'${word.replace(/'/g, "'\\''")}'`
