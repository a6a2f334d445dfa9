/**
 * `why` shows each outcome event's weight; with the contradiction discount on, those weights
 * must still add up, for any sequence and any times, to the decayed counts the evidence
 * projection folds in O(1).
 */
import fc from "fast-check"
import { expect, it } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import type { MemoryId } from "../../src/domain/ids.js"
import type { Outcome } from "../../src/domain/vocabulary.js"
import type { StoredEvent } from "../../src/events/events.js"
import { decayedCounts, evolveEvidence, type EvidenceState } from "../../src/projections/evidence-state.js"
import { termEvents } from "../../src/retrieval/explain.js"

const memoryId = "0000000000aaaaaaaaaaaaaaaa" as MemoryId
const DAY = 86_400_000
const T0 = Date.parse("2026-01-01T00:00:00Z")

it("per-event weights add up to the folded, decayed, discounted counts", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ outcome: fc.constantFrom<Outcome>("worked", "failed", "partial"), day: fc.integer({ min: 0, max: 400 }) }), { maxLength: 30 }),
      fc.constantFrom(1, 0.7, 0.5, 0.3),
      (reports, discount) => {
        const config = { ...DEFAULT_CONFIG, contradictionDiscount: discount }
        const events: StoredEvent[] = reports.map((r, i) => ({
          seq: i + 1,
          id: `e${i}`,
          version: 1,
          recordedAt: new Date(T0 + r.day * DAY).toISOString(),
          origin: "o",
          agent: "a",
          type: "OutcomeRecorded",
          event: { _tag: "OutcomeRecorded", memoryIds: [memoryId], outcome: r.outcome },
          payloadHash: "",
          hash: ""
        }))
        let evidence: EvidenceState | undefined
        for (const e of events) evidence = evolveEvidence(evidence, e, memoryId, config.halfLifeDays, discount)
        const now = T0 + 500 * DAY
        const expected = evidence ? decayedCounts(evidence, now, config.halfLifeDays) : { worked: 0, failed: 0 }
        const weights = termEvents(events, evidence, now, config).outcome
        const sum = (counts: string) => weights.filter((w) => w.counts === counts).reduce((s, w) => s + w.weight, 0)
        expect(sum("worked")).toBeCloseTo(expected.worked, 9)
        expect(sum("failed")).toBeCloseTo(expected.failed, 9)
      }
    ),
    { numRuns: 300 }
  )
})
