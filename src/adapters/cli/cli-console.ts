/**
 * The console @effect/cli prints through (help, --version, completion scripts, its own errors
 * about the command line), made to print the way every other line of `mem` does. Its renderer
 * ends each text with a newline and `console.log` adds another, so without this every such
 * output ended in a blank line (`mem --version` printed two lines).
 */
import type { Console } from "effect"

export const cliConsole = (console: Console.Console): Console.Console => ({
  ...console,
  log: (...args) => console.log(...args.map(tidy)),
  error: (...args) => console.error(...args.map(tidy))
})

/** A text without the trailing newlines the renderer leaves; anything else as it is. */
const tidy = (arg: unknown): unknown => (typeof arg === "string" ? arg.replace(/\n+$/, "") : arg)

/** A text @effect/cli's renderer made, written to `stream` as `cliConsole` prints one. */
export const writeRendered = (stream: NodeJS.WriteStream, text: string): void => void stream.write(`${tidy(text)}\n`)
