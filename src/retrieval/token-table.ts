/**
 * cl100k_base's vocabulary as one flat table, ready the moment it is read: each token's bytes,
 * and a hash table from those bytes to the token's rank, in a single buffer. gpt-tokenizer
 * builds a Map of 100,000 strings from a 1.2 MB script on first use, which cost a session index
 * about two bare node starts of CPU; reading this table costs a file read.
 *
 * The build writes the table beside the bundles (dist/cl100k.tokens). Where there is none (the
 * sources under test, the compiled tree), it is built from gpt-tokenizer's ranks on first use,
 * by the same function, so both ways give the same table.
 */
import { createRequire } from "node:module"

export interface TokenTable {
  /** The rank of the token made of bytes[start, end), or -1. */
  readonly rankOf: (bytes: Uint8Array, start: number, end: number) => number
  /** The rank of the token whose bytes are this ASCII text's, or -1: no encoding needed. */
  readonly rankOfAscii: (text: string) => number
  /** Whether gpt-tokenizer keeps this token as text (else as bytes, when they are not UTF-8). */
  readonly isText: (rank: number) => boolean
}

/** One token per rank: its text, or its bytes when they are not UTF-8 (as gpt-tokenizer lists them). */
export type Ranks = ReadonlyArray<string | ReadonlyArray<number>>

/** gpt-tokenizer's cl100k_base ranks: the one source of the vocabulary. */
export const gptTokenizerRanks = (): Ranks =>
  (createRequire(import.meta.url)("gpt-tokenizer/cjs/bpeRanks/cl100k_base") as { default: Ranks }).default

const MAGIC = 0x6b303031
const HEADER_WORDS = 4

/**
 * The table's bytes: a header (magic, token count, slot count, token bytes' length), each
 * token's start in the token bytes (and the end of the last), the hash slots (rank + 1, 0 when
 * empty), one kind byte per token (1: text), then the token bytes.
 */
export const buildTokenTable = (ranks: Ranks): Uint8Array => {
  const encoder = new TextEncoder()
  const tokens = ranks.map((token) => (typeof token === "string" ? encoder.encode(token) : Uint8Array.from(token)))
  const byteLength = tokens.reduce((sum, token) => sum + token.length, 0)
  // A power of two at least twice the count keeps probe runs short.
  const capacity = 2 ** Math.ceil(Math.log2(tokens.length * 2 + 1))
  const layout = layoutOf(tokens.length, capacity, byteLength)
  const buffer = new Uint8Array(layout.size)
  const words = new Uint32Array(buffer.buffer, 0, layout.bytesAt / 4)
  words.set([MAGIC, tokens.length, capacity, byteLength])
  const offsets = words.subarray(layout.offsetsAt / 4, layout.slotsAt / 4)
  const slots = words.subarray(layout.slotsAt / 4, layout.kindsAt / 4)
  let at = 0
  tokens.forEach((token, rank) => {
    offsets[rank] = at
    buffer.set(token, layout.bytesAt + at)
    buffer[layout.kindsAt + rank] = typeof ranks[rank] === "string" ? 1 : 0
    at += token.length
    let slot = hashOf(token, 0, token.length) & (capacity - 1)
    while (slots[slot] !== 0) slot = (slot + 1) & (capacity - 1)
    slots[slot] = rank + 1
  })
  offsets[tokens.length] = at
  return buffer
}

/** The table in `buffer` (as buildTokenTable wrote it); undefined if it is not one. */
export const readTokenTable = (buffer: Uint8Array): TokenTable | undefined => {
  if (buffer.byteLength < HEADER_WORDS * 4) return undefined
  // Word access needs 4-byte alignment; a Buffer from a pool may not have it.
  const bytes = buffer.byteOffset % 4 === 0 ? buffer : Uint8Array.from(buffer)
  const [magic, count, capacity, byteLength] = new Uint32Array(bytes.buffer, bytes.byteOffset, HEADER_WORDS)
  if (magic !== MAGIC || count === undefined || capacity === undefined || byteLength === undefined) return undefined
  const layout = layoutOf(count, capacity, byteLength)
  if (bytes.byteLength !== layout.size) return undefined
  const offsets = new Uint32Array(bytes.buffer, bytes.byteOffset + layout.offsetsAt, count + 1)
  const slots = new Uint32Array(bytes.buffer, bytes.byteOffset + layout.slotsAt, capacity)
  const kinds = bytes.subarray(layout.kindsAt, layout.bytesAt)
  const tokenBytes = bytes.subarray(layout.bytesAt)
  const mask = capacity - 1
  return {
    rankOf: (key, start, end) => {
      const length = end - start
      for (let slot = hashOf(key, start, end) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
        const rank = slots[slot]! - 1
        const from = offsets[rank]!
        if (offsets[rank + 1]! - from === length && sameBytes(tokenBytes, from, key, start, length)) return rank
      }
      return -1
    },
    rankOfAscii: (text) => {
      for (let slot = hashOfAscii(text) & mask; slots[slot] !== 0; slot = (slot + 1) & mask) {
        const rank = slots[slot]! - 1
        const from = offsets[rank]!
        if (offsets[rank + 1]! - from === text.length && sameAscii(tokenBytes, from, text)) return rank
      }
      return -1
    },
    isText: (rank) => kinds[rank] === 1
  }
}

const layoutOf = (count: number, capacity: number, byteLength: number) => {
  const offsetsAt = HEADER_WORDS * 4
  const slotsAt = offsetsAt + (count + 1) * 4
  const kindsAt = slotsAt + capacity * 4
  const bytesAt = kindsAt + Math.ceil(count / 4) * 4
  return { offsetsAt, slotsAt, kindsAt, bytesAt, size: bytesAt + byteLength }
}

/** FNV-1a, 32 bits. */
const hashOf = (bytes: Uint8Array, start: number, end: number): number => {
  let hash = 0x811c9dc5
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193)
  return hash >>> 0
}

/** hashOf over an ASCII text's bytes, which are its character codes. */
const hashOfAscii = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193)
  return hash >>> 0
}

const sameAscii = (bytes: Uint8Array, start: number, text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (bytes[start + i] !== text.charCodeAt(i)) return false
  return true
}

const sameBytes = (a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean => {
  for (let i = 0; i < length; i++) if (a[aStart + i] !== b[bStart + i]) return false
  return true
}
