/** Protects the id factory (src/domain/ids.ts): the ids it builds from character codes equal their definition. */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { isUlid, makeIdFactory } from "../../src/domain/ids.js"

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

/** The definition: six base-32 digits of minutes since 1970, then one character per random byte. */
const reference = (timeMs: number, bytes: Uint8Array): string => {
  let minutes = ""
  let t = Math.floor(timeMs / 60_000)
  for (let i = 0; i < 6; i++) {
    minutes = ALPHABET[t % 32] + minutes
    t = Math.floor(t / 32)
  }
  return minutes + Array.from(bytes, (b) => ALPHABET[b & 31]).join("")
}

test("an id is its minutes and its random characters, for any time and bytes", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: -1e13, max: 4e13 }), fc.uint8Array({ minLength: 20, maxLength: 20 })), { minLength: 1, maxLength: 8 }),
      (draws) => {
        let next = 0
        const makeId = makeIdFactory(() => draws[next]![1])
        for (; next < draws.length; next++) {
          const [time, bytes] = draws[next]!
          const id = makeId(time)
          expect(id).toBe(reference(time, bytes))
          if (time >= 0) expect(isUlid(id)).toBe(true)
        }
      }
    ),
    { numRuns: 500 }
  )
})
