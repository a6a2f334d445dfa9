/**
 * Protects the log's payloads: every event type survives encodePayload/decodePayload unchanged
 * (payloads generated from the event schemas themselves), and a payload that breaks its
 * schema is refused on read.
 */
// Effect's Arbitrary builds on the fast-check that effect bundles, so the properties run on it too.
import { Arbitrary, FastCheck as fc, type Schema } from "effect"
import { describe, expect, test } from "vitest"
import { decodePayload, encodePayload, EventDecodeError } from "../../src/events/codec.js"
import { CURRENT_VERSION, EVENT_SCHEMAS, EVENT_TYPES, type DomainEvent } from "../../src/events/events.js"
import { added } from "../support/events.js"
import { memoryId } from "../support/ids.js"

/** JSON has no -0; a payload is data, so 0 and -0 are the same confidence. */
const withoutNegativeZero = (e: DomainEvent): DomainEvent =>
  e._tag === "MemoryAdded" && Object.is(e.confidence, -0) ? { ...e, confidence: 0 } : e

describe.each(EVENT_TYPES)("%s", (type) => {
  const arbitrary = Arbitrary.make(EVENT_SCHEMAS[type] as unknown as Schema.Schema<DomainEvent>).map(withoutNegativeZero)

  test("round-trips through encodePayload and decodePayload", () => {
    fc.assert(
      fc.property(arbitrary, (event) => {
        const text = encodePayload(event)
        expect(JSON.parse(text)).not.toHaveProperty("_tag")
        expect(decodePayload(type, CURRENT_VERSION, text)).toEqual(event)
      }),
      { numRuns: 60 }
    )
  })
})

test("every event type has a schema, and only those", () => {
  expect([...EVENT_TYPES].sort()).toEqual(Object.keys(EVENT_SCHEMAS).sort())
  expect(EVENT_TYPES).toHaveLength(12)
})

test("a stored payload that breaks its schema is refused on read", () => {
  const text = encodePayload(added(memoryId(1), "fine"))
  const broken = JSON.stringify({ ...JSON.parse(text), category: "nonsense" })
  expect(() => decodePayload("MemoryAdded", CURRENT_VERSION, broken)).toThrow(EventDecodeError)
  expect(() => decodePayload("NoSuchEvent", CURRENT_VERSION, text)).toThrow(EventDecodeError)
})

test("an event that breaks its schema is refused on write", () => {
  expect(() => encodePayload(added(memoryId(1), ""))).toThrow()
  expect(() => encodePayload({ ...added(memoryId(1), "x"), confidence: 2 })).toThrow()
})
