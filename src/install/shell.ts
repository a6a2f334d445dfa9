/** Quoting for POSIX shells, which is how Claude Code and Codex run hook commands. */

const PLAIN = /^[A-Za-z0-9_\-./:=@%+,]+$/

/** A word the shell reads back as exactly `word`: as is when that is safe, else single-quoted. */
export const shellQuote = (word: string): string => (PLAIN.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)

export const shellCommand = (argv: ReadonlyArray<string>): string => argv.map(shellQuote).join(" ")
