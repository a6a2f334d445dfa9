/**
 * Protects the import reader's check of `createdAt` (src/commands/canonical-time.ts): on the
 * digits, it says what `Date` says, that the text is a real time written as `toISOString`
 * writes it; around every field's limits (month 0 and 13, February 29th, hour 24, second 60)
 * and on texts of another shape.
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { isCanonicalTime } from "../../src/commands/canonical-time.js"

/** The check the digits replaced. */
const byDate = (text: string): boolean => {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(text)) return false
  const time = new Date(text)
  return !Number.isNaN(time.getTime()) && time.toISOString() === text
}

const pad = (n: number, width: number) => String(n).padStart(width, "0")
const nearLimits = fc
  .record({
    year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1900, 2000, 2023, 2024, 2100, 2400)),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 25 }),
    minute: fc.integer({ min: 0, max: 61 }),
    second: fc.integer({ min: 0, max: 61 }),
    ms: fc.integer({ min: 0, max: 999 })
  })
  .map(({ year, month, day, hour, minute, second, ms }) =>
    `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(ms, 3)}Z`
  )
const otherShapes = fc.oneof(
  fc.string(),
  nearLimits.map((t) => t.replace(".", ",")),
  nearLimits.map((t) => t.slice(0, -1)),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString())
)

test("isCanonicalTime says what Date says", () => {
  fc.assert(
    fc.property(fc.oneof(nearLimits, otherShapes), (text) => {
      expect(isCanonicalTime(text)).toBe(byDate(text))
    }),
    { numRuns: 20_000 }
  )
})

test("the generated times are canonical and not, both often", () => {
  const sample = fc.sample(nearLimits, { numRuns: 2_000, seed: 3 })
  expect(sample.filter(byDate).length).toBeGreaterThan(200)
  expect(sample.filter((t) => !byDate(t)).length).toBeGreaterThan(200)
})
