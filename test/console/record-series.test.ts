/**
 * Protects the record chart: each point is what `recordAt` answered at that moment from the
 * outcomes before it (the evidence projection's fold), so the last point is the record the
 * memory shows now, the decay between outcomes is drawn, and the gate's verdict is the
 * projection's.
 */
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import type { Outcome } from "../../src/domain/vocabulary.js"
import { DAY_MS, evolveEvidence, recordAt, type EvidenceState } from "../../src/projections/evidence-state.js"
import { recordSeries } from "../../src/projections/record-series.js"
import { outcome as outcomeEvent } from "../support/events.js"
import { memoryId } from "../support/ids.js"
import { BASE_TIME_MS, toStored } from "../support/stored.js"

const M = memoryId(1)

const stored = (reports: ReadonlyArray<{ outcome: Outcome; day: number }>) =>
  toStored(reports.map((r) => ({ event: outcomeEvent([M], r.outcome), recordedAt: new Date(BASE_TIME_MS + r.day * DAY_MS).toISOString() })))

const Reports = fc.array(fc.record({ outcome: fc.constantFrom<Outcome>("worked", "failed", "partial"), day: fc.integer({ min: 0, max: 300 }) }), { minLength: 1, maxLength: 12 })

describe("recordSeries", () => {
  it("ends at the record the evidence projection gives now", () => {
    fc.assert(
      fc.property(Reports, (reports) => {
        const sorted = [...reports].sort((a, b) => a.day - b.day)
        const events = stored(sorted)
        const nowMs = BASE_TIME_MS + 400 * DAY_MS
        let state: EvidenceState | undefined
        for (const e of events) state = evolveEvidence(state, e, M, DEFAULT_CONFIG.halfLifeDays, DEFAULT_CONFIG.contradictionDiscount)
        const points = recordSeries(M, events, nowMs, DEFAULT_CONFIG)
        const last = points[points.length - 1]!
        const now = recordAt(state, nowMs, DEFAULT_CONFIG)
        expect(last.at).toBe(new Date(nowMs).toISOString())
        expect(last.worked).toBeCloseTo(now.worked, 9)
        expect(last.failed).toBeCloseTo(now.failed, 9)
        expect(last.gated).toBe(now.gated)
      })
    )
  })

  it("draws the decay between outcomes and a point at each one", () => {
    const events = stored([{ outcome: "failed", day: 0 }, { outcome: "failed", day: 10 }])
    const points = recordSeries(M, events, BASE_TIME_MS + 200 * DAY_MS, DEFAULT_CONFIG)
    expect(points.map((p) => p.at)).toContain(events[1]!.recordedAt)
    const after = points.filter((p) => p.at > events[1]!.recordedAt)
    for (let i = 1; i < after.length; i++) expect(after[i]!.failed).toBeLessThan(after[i - 1]!.failed)
    expect(points.some((p) => p.gated)).toBe(true)
  })

  it("has no point for a memory without outcomes", () => {
    expect(recordSeries(M, [], BASE_TIME_MS, DEFAULT_CONFIG)).toEqual([])
  })
})
