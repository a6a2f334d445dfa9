/**
 * Identifiers: ULIDs in lower-case Crockford base32 (26 characters, time-ordered).
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

/**
 * Makes ULIDs: 10 characters of millisecond time, then 16 random ones. Ids made in the same
 * millisecond are not ordered among themselves (the log's sequence number orders events);
 * in exchange they differ from the 11th character on, so short prefixes stay unique even
 * for a bulk import, where a monotonic counter would make them differ only at the end.
 */
export const makeUlidFactory = (random: (n: number) => Uint8Array = randomBytes) => (timeMs: number): string =>
  encodeTime(timeMs) + Array.from(random(16), (b) => ALPHABET[b & 31]).join("")

const encodeTime = (ms: number): string => {
  let out = ""
  let t = ms
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out
    t = Math.floor(t / 32)
  }
  return out
}
