/**
 * Identifiers: 26 characters of lower-case Crockford base32, time-ordered like a ULID but to
 * the minute: 6 characters of minutes since 1970 (good until the year 3991), then 20 random
 * ones (100 bits). A ULID's first 8 characters are all time, so ids made within the same
 * quarter second share them; here the 7th and 8th are random, so the 8-character prefix that
 * output shows is unique in practice (two ids of the same minute share it 1 time in 1,024).
 * An import's ids count up in the 7th to 10th (makeImportIdFactory), the rest random.
 * Branded so that a memory id can never be passed where an event id is expected.
 */
import { randomBytes } from "node:crypto"
import { Schema } from "effect"

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
const ULID_PATTERN = /^[0-9a-hjkmnp-tv-z]{26}$/

export const MemoryId = Schema.String.pipe(Schema.pattern(ULID_PATTERN), Schema.brand("MemoryId"))
export type MemoryId = typeof MemoryId.Type

export const EventId = Schema.String.pipe(Schema.pattern(ULID_PATTERN), Schema.brand("EventId"))
export type EventId = typeof EventId.Type

/** What a person types for an id: any prefix of 6 or more characters. */
export const ID_PREFIX_MIN = 6
/** How many characters output shows, when that many are unique. */
export const ID_DISPLAY_LENGTH = 8

export const isUlid = (s: string): boolean => ULID_PATTERN.test(s)

/** Makes an id for a time in milliseconds (the id keeps its minute). */
export type MakeId = (timeMs: number) => string

/** Makes ids; `random` is injectable so tests can make them reproducible. */
export const makeIdFactory = (random: (n: number) => Uint8Array = randomBytes): MakeId => idFactory(random, undefined)

/** How many characters after the minutes an import's ids count up in (see makeImportIdFactory). */
const COUNTED_CHARS = 4
const COUNTER_SPAN = 32 ** COUNTED_CHARS

/**
 * Ids for one import that makes about `expected` of them, in order: after the minutes, four
 * characters count up from a random start in even steps that spread the import over all
 * 2^20 of their values (wrapping round once, or more for over a million ids), then 16 random
 * characters (80 bits, so two imports in the same minute still never share an id).
 *
 * An import's ids go into three B-trees ordered by id (the events' and the memories' unique
 * ids, and the event-memory links), and a random id per line put each insert at a random page:
 * every batch of a large import rewrote most of those trees. Ids in order are appended at one
 * place. Spread out, they are as short to type as random ones: an import of up to 1,024 ids
 * gives each a different 8-character prefix, and a larger one's are no denser in the id space
 * than random ids of the same minute.
 */
export const makeImportIdFactory = (expected: number, random: (n: number) => Uint8Array = randomBytes): MakeId => {
  const step = Math.max(1, Math.floor(COUNTER_SPAN / Math.max(1, expected)))
  const [a, b, c] = random(3)
  let next = ((a! << 16) | (b! << 8) | c!) % COUNTER_SPAN
  return idFactory(random, () => {
    const counted = next
    next = (next + step) % COUNTER_SPAN
    return counted
  })
}

/** Six characters of minutes, then (if `counted`) four of its count, then random ones to 26. */
const idFactory = (random: (n: number) => Uint8Array, counted: (() => number) | undefined): MakeId => {
  // A bulk import makes two ids a line: each is one string made from 26 character codes, not
  // an array of characters joined or a chain of concatenations (a kilobyte of garbage per id).
  const codes = new Array<number>(26)
  const randomFrom = counted === undefined ? 6 : 6 + COUNTED_CHARS
  let minute = Number.NaN
  let prefix = ""
  return (timeMs: number): string => {
    const m = Math.floor(timeMs / 60_000)
    if (m !== minute) {
      minute = m
      prefix = encodeMinutes(timeMs)
      for (let i = 0; i < 6; i++) codes[i] = prefix.charCodeAt(i)
    }
    if (counted !== undefined) {
      let n = counted()
      for (let i = randomFrom - 1; i >= 6; i--, n >>>= 5) codes[i] = CODES[n & 31]!
    }
    const bytes = random(26 - randomFrom)
    for (let i = randomFrom; i < 26; i++) codes[i] = CODES[bytes[i - randomFrom]! & 31]!
    // A time before 1970 makes a longer prefix, which the codes cannot hold.
    return prefix.length === 6 ? String.fromCharCode.apply(null, codes) : prefix + String.fromCharCode.apply(null, codes.slice(6))
  }
}

const CODES = Array.from(ALPHABET, (c) => c.charCodeAt(0))

const encodeMinutes = (ms: number): string => {
  let out = ""
  let t = Math.floor(ms / 60_000)
  for (let i = 0; i < 6; i++) {
    out = ALPHABET[t % 32] + out
    t = Math.floor(t / 32)
  }
  return out
}
