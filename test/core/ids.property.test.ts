/**
 * Protects the id factories (src/domain/ids.ts): the ids they build from character codes equal
 * their definition, and an import's ids come in order and as short to type as random ones.
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { ID_DISPLAY_LENGTH, isUlid, makeIdFactory, makeImportIdFactory } from "../../src/domain/ids.js"

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

/** Random bytes from a seed, as many as asked for. */
const seededBytes = (seed: number) => {
  let a = seed >>> 0
  return (n: number) => Uint8Array.from({ length: n }, () => ((a = (Math.imul(a, 1_664_525) + 1_013_904_223) >>> 0) >>> 24))
}

const NOW = Date.UTC(2026, 10, 30, 4, 0)

test("an import's ids are its minutes, a count and random characters, ascending but for one wrap", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 5_000 }), fc.integer(), fc.double({ min: 0.01, max: 1.5, noNaN: true }), (expected, seed, share) => {
      const made = Math.max(1, Math.round(expected * share))
      const makeId = makeImportIdFactory(expected, seededBytes(seed))
      const ids = Array.from({ length: made }, () => makeId(NOW))
      for (const id of ids) {
        expect(isUlid(id)).toBe(true)
        expect(id.slice(0, 6)).toBe(reference(NOW, new Uint8Array(20)).slice(0, 6))
      }
      expect(new Set(ids).size).toBe(made)
      // Within the ids the import expected, the count passes its top once at most.
      const descents = ids.slice(0, expected).filter((id, i) => i > 0 && id < ids[i - 1]!).length
      expect(descents).toBeLessThanOrEqual(1)
    }),
    { numRuns: 300 }
  )
})

test("an import of up to 1,024 ids gives each a different 8-character prefix", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1_024 }), fc.integer(), (expected, seed) => {
      const makeId = makeImportIdFactory(expected, seededBytes(seed))
      const prefixes = Array.from({ length: expected }, () => makeId(NOW).slice(0, ID_DISPLAY_LENGTH))
      expect(new Set(prefixes).size).toBe(expected)
    }),
    { numRuns: 300 }
  )
})

test("the characters after an import's count are its random bytes, as a random id's are", () => {
  const bytes = seededBytes(11)
  const drawn: Uint8Array[] = []
  const makeId = makeImportIdFactory(100, (n) => {
    const b = bytes(n)
    drawn.push(b)
    return b
  })
  const ids = Array.from({ length: 5 }, () => makeId(NOW))
  // The first draw is the count's start; each id then draws its 16 random characters.
  expect(drawn.map((b) => b.length)).toEqual([3, 16, 16, 16, 16, 16])
  ids.forEach((id, i) => expect(id.slice(10)).toBe(reference(NOW, Uint8Array.from([0, 0, 0, 0, ...drawn[i + 1]!])).slice(10)))
})
