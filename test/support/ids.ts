/**
 * Readable, valid ids for tests: `memoryId(3)` is a 26-character lower-case ULID whose last
 * digits spell 3, so failures print ids a person can tell apart.
 */
import type { MemoryId } from "../../src/domain/ids.js"

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

const ulidOf = (prefix: string, n: number): string => {
  let digits = ""
  let rest = n
  do {
    digits = ALPHABET[rest % 32] + digits
    rest = Math.floor(rest / 32)
  } while (rest > 0)
  return (prefix + digits.padStart(26 - prefix.length, "0")).slice(0, 26)
}

/** Memory ids start with "m", event ids with "e": never confused in a failure message. */
export const memoryId = (n: number): MemoryId => ulidOf("0m", n) as MemoryId
export const eventId = (n: number): string => ulidOf("0e", n)
