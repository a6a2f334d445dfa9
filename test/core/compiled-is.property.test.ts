/**
 * Protects the compiled schema checks (src/events/compiled-is.ts) that the event codec and the
 * log's envelope check use in place of `Schema.is`: on every event schema and the envelope,
 * they compile (no silent fallback), and they answer exactly as `Schema.is` does on valid
 * values from the schema's own arbitrary, on the same values with one field removed or replaced
 * by anything, and on anything at all.
 */
// Effect's Arbitrary builds on the fast-check that effect bundles, so the properties run on it too.
import { Arbitrary, FastCheck as fc, Schema } from "effect"
import { describe, expect, test } from "vitest"
import { compiledCheck } from "../../src/events/compiled-is.js"
import { Envelope, EVENT_SCHEMAS, EVENT_TYPES } from "../../src/events/events.js"

const SCHEMAS: ReadonlyArray<readonly [string, Schema.Schema<any, any>]> = [
  ...EVENT_TYPES.map((type) => [type, EVENT_SCHEMAS[type] as unknown as Schema.Schema<any, any>] as const),
  ["Envelope", Envelope]
]

/** Values near the edges of the vocabulary's refinements, besides whatever fast-check draws. */
const edgy = fc.oneof(
  fc.anything(),
  fc.constantFrom("", " ", "\n", "x".repeat(100), "x".repeat(101), "x".repeat(500), "x".repeat(501), null, undefined, Number.NaN, -0, 1.5, -1, [], {}),
  fc.string(),
  fc.double()
)

describe.each(SCHEMAS)("%s", (_name, schema) => {
  const compiled = compiledCheck(schema)
  const is = Schema.is(schema)
  const valid = Arbitrary.make(schema) as fc.Arbitrary<Record<string, unknown>>

  test("compiles", () => {
    expect(compiled).toBeDefined()
  })

  test("agrees with Schema.is on valid values, and on each with one field removed or replaced", () => {
    fc.assert(
      fc.property(valid, fc.nat(), fc.boolean(), edgy, (value, pick, remove, replacement) => {
        expect(compiled!(value)).toBe(true)
        expect(is(value)).toBe(true)
        const keys = Object.keys(value)
        if (keys.length === 0) return
        const key = keys[pick % keys.length]!
        const changed: Record<string, unknown> = { ...value }
        if (remove) delete changed[key]
        else changed[key] = replacement
        expect(compiled!(changed)).toBe(is(changed))
      }),
      { numRuns: 300 }
    )
  })

  test("agrees with Schema.is on anything at all", () => {
    fc.assert(
      fc.property(edgy, (value) => {
        expect(compiled!(value)).toBe(is(value))
      }),
      { numRuns: 300 }
    )
  })
})
