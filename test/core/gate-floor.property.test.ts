/**
 * Protects the overview's index bound on the failure gate (evidence-state.ts `gateFloorMs`):
 * every record the gate holds back at a moment has its `oneFailureAtMs` at or above the floor
 * for that moment, whatever its outcomes, their times, the settings and the moment asked about.
 * A record below the floor is never read by the overview, so one gated there would be missed.
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { DEFAULT_CONFIG, type LedgerConfig } from "../../src/config.js"
import { DAY_MS, evolveEvidence, gateFloorMs, oneFailureAtMs, recordAt, type EvidenceState } from "../../src/projections/evidence-state.js"
import { outcome } from "../support/events.js"
import { memoryId } from "../support/ids.js"
import { BASE_TIME_MS, toStored } from "../support/stored.js"

const M = memoryId(1)

const reportsArb = fc.array(
  fc.record({ outcome: fc.constantFrom("worked" as const, "failed" as const, "partial" as const), day: fc.double({ min: 0, max: 720, noNaN: true }) }),
  { minLength: 1, maxLength: 30 }
)

const configArb = fc.record({
  halfLifeDays: fc.double({ min: 1, max: 365, noNaN: true }),
  failureWeight: fc.double({ min: 0.1, max: 5, noNaN: true }),
  failureGate: fc.double({ min: -0.99, max: -0.01, noNaN: true }),
  contradictionDiscount: fc.double({ min: 0, max: 1, noNaN: true })
})

const fold = (reports: ReadonlyArray<{ outcome: "worked" | "failed" | "partial"; day: number }>, config: LedgerConfig) =>
  toStored(reports.map((r) => ({ event: outcome([M], r.outcome), recordedAt: new Date(BASE_TIME_MS + Math.round(r.day * DAY_MS)).toISOString() }))).reduce<
    EvidenceState | undefined
  >((state, stored) => evolveEvidence(state, stored, M, config.halfLifeDays, config.contradictionDiscount), undefined)

test("a record the gate holds back is never below the gate's floor", () => {
  fc.assert(
    fc.property(reportsArb, configArb, fc.double({ min: 0, max: 1000, noNaN: true }), (reports, settings, nowDay) => {
      const config = { ...DEFAULT_CONFIG, ...settings }
      const evidence = fold(reports, config)!
      const nowMs = BASE_TIME_MS + nowDay * DAY_MS
      if (!recordAt(evidence, nowMs, config).gated) return
      expect(oneFailureAtMs(evidence, config.halfLifeDays)).toBeGreaterThanOrEqual(gateFloorMs(nowMs, config)!)
    }),
    { numRuns: 2000 }
  )
})

test("the floor is close: a record far above it with no successes is gated, and one below it never", () => {
  const config = DEFAULT_CONFIG
  const nowMs = BASE_TIME_MS + 400 * DAY_MS
  const floor = gateFloorMs(nowMs, config)!
  // Failures alone, so the bound is the gate itself: a day either side of it decides.
  const failuresAt = (oneAt: number): EvidenceState => ({ memoryId: M, worked: 0, failed: 1, anchorMs: oneAt, workedCount: 0, failedCount: 1, partialCount: 0, eventIds: [] })
  expect(recordAt(failuresAt(floor + DAY_MS), nowMs, config).gated).toBe(true)
  expect(recordAt(failuresAt(floor - DAY_MS), nowMs, config).gated).toBe(false)
  expect(gateFloorMs(nowMs, { ...config, failureGate: 0 })).toBeUndefined()
})
