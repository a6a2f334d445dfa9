/**
 * A block of lines memledger owns inside a file the user also writes (AGENTS.md), between
 * `<!-- memledger:start -->` and `<!-- memledger:end -->` lines. Everything outside the markers
 * stays byte for byte; uninstall takes the block out with the blank line install put before it.
 */
import { Either } from "effect"
import { appendBlock, cutBlock, newlineOf, splitLines } from "./line-blocks.js"

export const BLOCK_START = "<!-- memledger:start -->"
export const BLOCK_END = "<!-- memledger:end -->"

/** The text with the block holding `body` (lines without markers), replaced in place or added at the end. */
export const withBlock = (text: string, body: string): Either.Either<string, string> =>
  Either.map(regionOf(text), ({ lines, region }) => {
    const block = [BLOCK_START, ...body.split("\n"), BLOCK_END].map((line) => line + newlineOf(text))
    if (region !== undefined) return [...lines.slice(0, region.start), ...block, ...lines.slice(region.end)].join("")
    return appendBlock(text, block.join(""))
  })

/** The text without the block (and the blank line that set it apart); "" when nothing else was there. */
export const withoutBlock = (text: string): Either.Either<string, string> =>
  Either.map(regionOf(text), ({ lines, region }) => {
    return region === undefined ? text : cutBlock(lines, region)
  })

const regionOf = (text: string): Either.Either<{ lines: ReadonlyArray<string>; region?: { start: number; end: number } }, string> => {
  const lines = splitLines(text)
  const start = lines.findIndex((line) => line.trim() === BLOCK_START)
  const end = lines.findIndex((line, i) => i > start && line.trim() === BLOCK_END)
  if (start < 0 && lines.some((line) => line.trim() === BLOCK_END)) return Either.left(`it has ${BLOCK_END} without ${BLOCK_START}`)
  if (start < 0) return Either.right({ lines })
  if (end < 0) return Either.left(`it has ${BLOCK_START} without ${BLOCK_END} after it`)
  return Either.right({ lines, region: { start, end: end + 1 } })
}
