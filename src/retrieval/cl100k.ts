/**
 * Token counts under cl100k_base, the same as gpt-tokenizer's `countTokens` for every text
 * (test/retrieval/cl100k.property.test.ts compares the two), over a TokenTable instead of its
 * Map: the text is split as gpt-tokenizer splits it, a piece that is one token counts one, and
 * any other is merged pair by pair, lowest rank first, as its BytePairEncodingCore merges.
 */
import type { TokenTable } from "./token-table.js"

/** cl100k_base's special tokens, in gpt-tokenizer's order. `countTokens` refuses a text holding one. */
const SPECIAL_TOKENS = ["<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|im_start|>", "<|im_end|>", "<|im_sep|>", "<|endofprompt|>"]
const SPECIAL = new RegExp(`(${SPECIAL_TOKENS.map((token) => token.replace(/[|]/g, "\\|")).join("|")})`)

/** gpt-tokenizer's CL100K_TOKEN_SPLIT_REGEX, character for character. */
const PIECES = new RegExp(
  String.raw`'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s`,
  "gu"
)

/**
 * How many pieces cl100k splits a text into before it merges: a floor under its tokens that
 * needs no vocabulary, since no token spans two pieces (and none is empty). It is never under the
 * text's words either: a piece holds at most one of them (whitespace starts a new one).
 */
export const piecesIn = (text: string): number => {
  let count = 0
  for (const _ of text.matchAll(PIECES)) count++
  return count
}

/** A UTF-16 surrogate that is not half of a pair: no token's text holds one. */
const LONE_SURROGATE = /\p{Surrogate}/u
const NOT_ASCII = /[^\x00-\x7f]/

/** Pieces recur (a store's memories share their words): their counts are kept, up to this many. */
const COUNTED_KEPT = 20_000

export const cl100kCounter = (table: TokenTable) => {
  const encoder = new TextEncoder()

  /**
   * gpt-tokenizer's getBpeRankFromBytes: valid UTF-8 is decoded and looked up among text tokens,
   * anything else among byte tokens. Its decoder drops a leading byte order mark, so bytes that
   * start with one are looked up without it.
   */
  const rankOf = (bytes: Uint8Array, start: number, end: number): number => {
    const text = isValidUtf8(bytes, start, end)
    const from = text && startsWithByteOrderMark(bytes, start, end) ? start + 3 : start
    const rank = table.rankOf(bytes, from, end)
    return rank >= 0 && table.isText(rank) === text ? rank : Number.POSITIVE_INFINITY
  }

  /** How many tokens BytePairEncodingCore.bytePairMerge makes of these bytes. */
  const mergedCount = (bytes: Uint8Array): number => {
    const starts: number[] = []
    const ranks: number[] = []
    const rankAt = (i: number): number => (starts[i + 2] === undefined ? Number.POSITIVE_INFINITY : rankOf(bytes, starts[i]!, starts[i + 2]!))
    for (let i = 0; i <= bytes.length; i++) {
      starts.push(i)
      ranks.push(i < bytes.length - 1 ? rankOf(bytes, i, i + 2) : Number.POSITIVE_INFINITY)
    }
    while (starts.length > 1) {
      let lowest = Number.POSITIVE_INFINITY
      let at = -1
      for (let i = 0; i < ranks.length - 1; i++) {
        if (ranks[i]! < lowest) {
          lowest = ranks[i]!
          at = i
        }
      }
      if (at === -1) break
      starts.splice(at + 1, 1)
      ranks.splice(at, 1)
      ranks[at] = rankAt(at)
      if (at > 0) ranks[at - 1] = rankAt(at - 1)
    }
    return starts.length - 1
  }

  /** Tokens of a piece from its bytes. A whole piece is looked up by its text: one with a lone surrogate is never a token. */
  const bytesCount = (text: string): number => {
    const bytes = encoder.encode(text)
    if (!LONE_SURROGATE.test(text)) {
      const rank = table.rankOf(bytes, 0, bytes.length)
      if (rank >= 0 && table.isText(rank)) return 1
    }
    return mergedCount(bytes)
  }

  const counted = new Map<string, number>()

  const piece = (text: string): number => {
    // Most pieces are ASCII words that are one token: found without encoding them.
    if (!NOT_ASCII.test(text)) {
      const rank = table.rankOfAscii(text)
      if (rank >= 0 && table.isText(rank)) return 1
    }
    let count = counted.get(text)
    if (count === undefined) {
      count = bytesCount(text)
      if (counted.size >= COUNTED_KEPT) counted.clear()
      counted.set(text, count)
    }
    return count
  }

  return (text: string): number => {
    const special = SPECIAL.exec(text)
    if (special !== null) throw new Error(`Disallowed special token found: ${special[0]}`)
    let count = 0
    for (const [match] of text.matchAll(PIECES)) count += piece(match)
    return count
  }
}

const startsWithByteOrderMark = (bytes: Uint8Array, start: number, end: number): boolean =>
  end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf

/** gpt-tokenizer's isValidUTF8, over bytes[start, end): no overlong forms, no surrogates, nothing above U+10FFFF. */
const isValidUtf8 = (bytes: Uint8Array, start: number, end: number): boolean => {
  let i = start
  while (i < end) {
    const first = bytes[i]!
    let length: number
    let codePoint: number
    if (first <= 0x7f) {
      length = 1
      codePoint = first
    } else if ((first & 0xe0) === 0xc0) {
      if (first <= 0xc1) return false
      length = 2
      codePoint = first & 0x1f
    } else if ((first & 0xf0) === 0xe0) {
      length = 3
      codePoint = first & 0x0f
    } else if ((first & 0xf8) === 0xf0) {
      if (first > 0xf4) return false
      length = 4
      codePoint = first & 0x07
    } else return false
    if (i + length > end) return false
    for (let j = 1; j < length; j++) {
      const next = bytes[i + j]!
      if ((next & 0xc0) !== 0x80) return false
      codePoint = (codePoint << 6) | (next & 0x3f)
    }
    if ((length === 2 && codePoint < 0x80) || (length === 3 && codePoint < 0x800) || (length === 4 && codePoint < 0x10000)) return false
    if ((codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return false
    i += length
  }
  return true
}
