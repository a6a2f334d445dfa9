/**
 * Identifiers: 26 characters of lower-case Crockford base32, time-ordered like a ULID but to
 * the minute: 6 characters of minutes since 1970 (good until the year 3991), then 20 random
 * ones (100 bits). A ULID's first 8 characters are all time, so ids made within the same
 * quarter second share them; here the 7th and 8th are random, so the 8-character prefix that
 * output shows is unique in practice (two ids of the same minute share it 1 time in 1,024).
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

/** Makes ids; `random` is injectable so tests can make them reproducible. */
export const makeIdFactory = (random: (n: number) => Uint8Array = randomBytes) => {
  // A bulk import makes two ids a line: each is one string made from 26 character codes, not
  // an array of characters joined or a chain of concatenations (a kilobyte of garbage per id).
  const codes = new Array<number>(26)
  let minute = Number.NaN
  let prefix = ""
  return (timeMs: number): string => {
    const m = Math.floor(timeMs / 60_000)
    if (m !== minute) {
      minute = m
      prefix = encodeMinutes(timeMs)
      for (let i = 0; i < 6; i++) codes[i] = prefix.charCodeAt(i)
    }
    const bytes = random(20)
    for (let i = 0; i < 20; i++) codes[6 + i] = CODES[bytes[i]! & 31]!
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
