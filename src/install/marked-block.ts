/**
 * A block of lines memledger owns inside a file the user also writes (AGENTS.md), between
 * `<!-- memledger:start -->` and `<!-- memledger:end -->` lines. Everything outside the markers
 * stays byte for byte; uninstall takes the block out with the blank line install put before it.
 */
import { Either } from "effect"

export const BLOCK_START = "<!-- memledger:start -->"
export const BLOCK_END = "<!-- memledger:end -->"

/** The text with the block holding `body` (lines without markers), replaced in place or added at the end. */
export const withBlock = (text: string, body: string): Either.Either<string, string> =>
  Either.map(regionOf(text), ({ lines, region }) => {
    const newline = text.includes("\r\n") ? "\r\n" : "\n"
    const block = [BLOCK_START, ...body.split("\n"), BLOCK_END].map((line) => line + newline)
    if (region !== undefined) return [...lines.slice(0, region.start), ...block, ...lines.slice(region.end)].join("")
    if (text === "") return block.join("")
    return (text.endsWith("\n") ? text : text + newline) + newline + block.join("")
  })

/** The text without the block (and the blank line that set it apart); "" when nothing else was there. */
export const withoutBlock = (text: string): Either.Either<string, string> =>
  Either.map(regionOf(text), ({ lines, region }) => {
    if (region === undefined) return text
    const before = lines[region.start - 1]
    const after = lines[region.end]
    const separatorToo = before !== undefined && before.trim() === "" && (after === undefined || after.trim() === "")
    return [...lines.slice(0, separatorToo ? region.start - 1 : region.start), ...lines.slice(region.end)].join("")
  })

const regionOf = (text: string): Either.Either<{ lines: ReadonlyArray<string>; region?: { start: number; end: number } }, string> => {
  const lines = text.split(/(?<=\n)/)
  const start = lines.findIndex((line) => line.trim() === BLOCK_START)
  const end = lines.findIndex((line, i) => i > start && line.trim() === BLOCK_END)
  if (start < 0 && lines.some((line) => line.trim() === BLOCK_END)) return Either.left(`it has ${BLOCK_END} without ${BLOCK_START}`)
  if (start < 0) return Either.right({ lines })
  if (end < 0) return Either.left(`it has ${BLOCK_START} without ${BLOCK_END} after it`)
  return Either.right({ lines, region: { start, end: end + 1 } })
}
