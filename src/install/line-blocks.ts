/**
 * A block of lines memledger adds to a file the user writes too (a TOML table, a marked block):
 * added at the end, set apart by one blank line, and cut out with that blank line, so cutting
 * undoes adding byte for byte.
 */

/** The text's lines, each with its line ending, so joining them gives the text back. */
export const splitLines = (text: string): Array<string> => text.split(/(?<=\n)/)

export const newlineOf = (text: string): "\n" | "\r\n" => (text.includes("\r\n") ? "\r\n" : "\n")

/** `block` (whole lines) after the text, set apart by a blank line; alone in an empty text. */
export const appendBlock = (text: string, block: string): string => {
  if (text === "") return block
  const newline = newlineOf(text)
  return (text.endsWith("\n") ? text : text + newline) + newline + block
}

/** The lines without `[start, end)` and, when a blank line or the end follows, the blank line before it. */
export const cutBlock = (lines: ReadonlyArray<string>, region: { readonly start: number; readonly end: number }): string => {
  const before = lines[region.start - 1]
  const after = lines[region.end]
  const separatorToo = before !== undefined && isBlank(before) && (after === undefined || isBlank(after))
  return [...lines.slice(0, separatorToo ? region.start - 1 : region.start), ...lines.slice(region.end)].join("")
}

export const isBlank = (line: string): boolean => line.trim() === ""
