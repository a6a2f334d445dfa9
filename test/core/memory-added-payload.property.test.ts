/**
 * Protects the hand-written MemoryAdded payload (src/events/memory-added-payload.ts), which an
 * import writes once per line: for every valid event, its text is the text the schema's encode
 * gives, stringified without `_tag`, byte for byte; its hash, and so the chain, is unchanged.
 * Events come from the schema itself, then with texts of any code unit (quotes, control
 * characters, lone surrogates), optional fields given as undefined, and keys the schema does
 * not know.
 */
import { Arbitrary, FastCheck as fc, Schema } from "effect"
import { expect, test } from "vitest"
import { encodePayload } from "../../src/events/codec.js"
import { MemoryAdded, type EventOf } from "../../src/events/events.js"
import { memoryAddedPayload } from "../../src/events/memory-added-payload.js"

type Added = EventOf<"MemoryAdded">

/** What encodePayload gave before the hand-written payload: the schema's encode, without `_tag`. */
const encodedBySchema = (event: Added): string => {
  const { _tag, ...payload } = Schema.encodeSync(MemoryAdded)(event) as Record<string, unknown>
  return JSON.stringify(payload)
}

const isAdded = Schema.is(MemoryAdded)
const anyText = fc.string({ unit: "binary", minLength: 1, maxLength: 40 })

const events: fc.Arbitrary<Added> = fc
  .tuple(
    Arbitrary.make(MemoryAdded),
    fc.record(
      {
        content: anyText,
        project: fc.option(anyText),
        tags: fc.array(anyText, { maxLength: 4 }),
        confidence: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, -0, 1, 1e-7, 0.1 + 0.2)),
        createdAt: fc.constant(undefined),
        redacted: fc.constant(undefined),
        unknownKey: fc.jsonValue()
      },
      { requiredKeys: [] }
    )
  )
  .map(([event, changes]) => ({ ...event, ...changes }) as Added)
  .filter(isAdded)

test("the hand-written MemoryAdded payload is the schema's encoding, byte for byte", () => {
  fc.assert(
    fc.property(events, (event) => {
      const expected = encodedBySchema(event)
      expect(memoryAddedPayload(event)).toBe(expected)
      expect(encodePayload(event)).toBe(expected)
    }),
    { numRuns: 3_000 }
  )
})

test("the generated events reach every optional field, present and absent", () => {
  const sample = fc.sample(events, { numRuns: 1_000, seed: 11 })
  for (const field of ["createdAt", "redacted", "privateDropped", "flags", "capture"] as const) {
    expect(sample.some((e) => e[field] !== undefined)).toBe(true)
    expect(sample.some((e) => e[field] === undefined)).toBe(true)
  }
  expect(sample.some((e) => e.project === null)).toBe(true)
  expect(sample.some((e) => /["\\\u0000-\u001f\ud800-\udfff]/.test(e.content))).toBe(true)
})
