/**
 * Protects the outcome decay of docs/ranking.md: the O(1) closed form (sums anchored at one time,
 * rescaled at read) equals the direct sum of weight x 0.5^((now - t) / halfLife) over the outcome
 * events, in any order of timestamps; and the outcome score reproduces the reference values.
 */
import * as fc from "fast-check"
import { describe, expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import type { Outcome } from "../../src/domain/vocabulary.js"
import { DAY_MS, decayedCounts, evolveEvidence, outcomeScore, outcomeWeights, type EvidenceState } from "../../src/projections/evidence-state.js"
import { outcome as outcomeEvent } from "../support/events.js"
import { memoryId } from "../support/ids.js"
import { BASE_TIME_MS, toStored } from "../support/stored.js"

const M = memoryId(1)
const OTHER = memoryId(2)
const HALF_LIFE = DEFAULT_CONFIG.halfLifeDays
const YEAR_MS = 365 * DAY_MS

interface Report {
  readonly outcome: Outcome
  readonly atMs: number
  readonly alsoOther: boolean
}

const fold = (reports: ReadonlyArray<Report>, halfLife = HALF_LIFE): EvidenceState | undefined =>
  toStored(
    reports.map((r) => ({
      event: outcomeEvent(r.alsoOther ? [OTHER, M] : [M], r.outcome),
      recordedAt: new Date(r.atMs).toISOString()
    }))
  ).reduce<EvidenceState | undefined>((state, stored) => evolveEvidence(state, stored, M, halfLife), undefined)

const directSum = (reports: ReadonlyArray<Report>, nowMs: number, halfLife = HALF_LIFE) =>
  reports.reduce(
    (sum, r) => {
      const k = Math.pow(0.5, (nowMs - r.atMs) / (halfLife * DAY_MS))
      const w = outcomeWeights(r.outcome)
      return { worked: sum.worked + w.worked * k, failed: sum.failed + w.failed * k }
    },
    { worked: 0, failed: 0 }
  )

const close = (actual: number, expected: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(1e-9 * Math.max(Math.abs(actual), Math.abs(expected)))

const report = fc.record({
  outcome: fc.constantFrom<Outcome>("worked", "failed", "partial"),
  atMs: fc.integer({ min: BASE_TIME_MS - 2 * YEAR_MS, max: BASE_TIME_MS + 2 * YEAR_MS }),
  alsoOther: fc.boolean()
})

test("closed-form decayed counts equal the direct sum over events, timestamps in any order", () => {
  fc.assert(
    fc.property(
      fc.array(report, { minLength: 1, maxLength: 30 }),
      fc.integer({ min: -YEAR_MS, max: 3 * YEAR_MS }),
      fc.constantFrom(HALF_LIFE, 7, 365),
      (reports, afterLatest, halfLife) => {
        const now = Math.max(...reports.map((r) => r.atMs)) + afterLatest
        const state = fold(reports, halfLife)!
        const got = decayedCounts(state, now, halfLife)
        const want = directSum(reports, now, halfLife)
        close(got.worked, want.worked)
        close(got.failed, want.failed)
        expect(state.eventIds).toHaveLength(reports.length)
        expect([state.workedCount, state.failedCount, state.partialCount]).toEqual(
          (["worked", "failed", "partial"] as const).map((o) => reports.filter((r) => r.outcome === o).length)
        )
      }
    ),
    { numRuns: 300 }
  )
})

test("an outcome for other memories only leaves the evidence untouched", () => {
  const stored = toStored([outcomeEvent([OTHER], "failed")])[0]!
  expect(evolveEvidence(undefined, stored, M, HALF_LIFE)).toBeUndefined()
})

test("a purged outcome counts for nothing", () => {
  const stored = toStored([{ event: outcomeEvent([M], "worked"), purged: true }])[0]!
  expect(evolveEvidence(undefined, stored, M, HALF_LIFE)).toBeUndefined()
})

describe("reference outcome scores (docs/ranking.md)", () => {
  const score = (w: number, f: number) => Number(outcomeScore(w, f, DEFAULT_CONFIG.failureWeight).toFixed(2))

  test("one success 0.33, ten successes 0.83", () => {
    expect(score(1, 0)).toBe(0.33)
    expect(score(10, 0)).toBe(0.83)
  })

  test("one failure -0.43, two failures -0.6", () => {
    expect(score(0, 1)).toBe(-0.43)
    expect(score(0, 2)).toBe(-0.6)
  })

  test("partial adds a quarter of a success", () => {
    expect(outcomeWeights("partial")).toEqual({ worked: 0.25, failed: 0 })
    expect(outcomeWeights("worked")).toEqual({ worked: 1, failed: 0 })
    expect(outcomeWeights("failed")).toEqual({ worked: 0, failed: 1 })
  })

  test("a count halves every 90 days", () => {
    const state = fold([{ outcome: "worked", atMs: BASE_TIME_MS, alsoOther: false }])!
    close(decayedCounts(state, BASE_TIME_MS + 90 * DAY_MS, HALF_LIFE).worked, 0.5)
    close(decayedCounts(state, BASE_TIME_MS + 180 * DAY_MS, HALF_LIFE).worked, 0.25)
  })

  test("two failures hold the gate, and let go after about 53 days (4.3)", () => {
    const state = fold([
      { outcome: "failed", atMs: BASE_TIME_MS, alsoOther: false },
      { outcome: "failed", atMs: BASE_TIME_MS, alsoOther: false }
    ])!
    const scoreAfter = (days: number) => {
      const { worked, failed } = decayedCounts(state, BASE_TIME_MS + days * DAY_MS, HALF_LIFE)
      return outcomeScore(worked, failed, DEFAULT_CONFIG.failureWeight)
    }
    expect(scoreAfter(0)).toBeLessThanOrEqual(DEFAULT_CONFIG.failureGate)
    expect(scoreAfter(52)).toBeLessThanOrEqual(DEFAULT_CONFIG.failureGate)
    expect(scoreAfter(53)).toBeGreaterThan(DEFAULT_CONFIG.failureGate)
    expect(outcomeScore(0, 1, DEFAULT_CONFIG.failureWeight)).toBeGreaterThan(DEFAULT_CONFIG.failureGate)
  })
})
