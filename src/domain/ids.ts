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
 * Makes ULIDs that stay strictly increasing within one process even when several are made in
 * the same millisecond (the random part is incremented), so sorting ids sorts by creation.
 */
export const makeUlidFactory = (random: (n: number) => Uint8Array = randomBytes) => {
  let lastTime = -1
  let lastRandom: number[] = []
  return (timeMs: number): string => {
    if (timeMs <= lastTime) {
      increment(lastRandom)
    } else {
      lastTime = timeMs
      lastRandom = Array.from(random(16), (b) => b & 31)
    }
    return encodeTime(Math.max(timeMs, lastTime)) + lastRandom.map((d) => ALPHABET[d]).join("")
  }
}

const encodeTime = (ms: number): string => {
  let out = ""
  let t = ms
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[t % 32] + out
    t = Math.floor(t / 32)
  }
  return out
}

const increment = (digits: number[]): void => {
  for (let i = digits.length - 1; i >= 0; i--) {
    const next = (digits[i] ?? 0) + 1
    if (next < 32) {
      digits[i] = next
      return
    }
    digits[i] = 0
  }
}
