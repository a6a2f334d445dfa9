/**
 * The events behind each score term, for `why`: read from the log, weighed exactly as the
 * projections weigh them, so that the outcome events' weights add up to the decayed counts.
 */
import type { LedgerConfig } from "../config.js"
import type { StoredEvent } from "../events/events.js"
import { decayFactor, outcomeWeights, type EvidenceState } from "../projections/evidence-state.js"

export interface EventRef {
  readonly id: string
  readonly seq: number
  readonly type: string
  readonly recordedAt: string
  readonly origin: string
}

export interface OutcomeRef extends EventRef {
  readonly outcome: "worked" | "failed" | "partial"
  /** What this event adds to worked or failed as of now: decayed, and discounted by later contradicting outcomes. */
  readonly weight: number
  readonly counts: "worked" | "failed"
}

export interface TermEvents {
  /** The events that set the text being matched: the addition and the last revision. */
  readonly relevance: ReadonlyArray<EventRef>
  readonly outcome: ReadonlyArray<OutcomeRef>
  /** The addition, which fixes the creation time. */
  readonly recency: ReadonlyArray<EventRef>
  /** The addition, which fixes the confidence. */
  readonly confidence: ReadonlyArray<EventRef>
  readonly frequency: ReadonlyArray<EventRef>
}

export const termEvents = (
  events: ReadonlyArray<StoredEvent>,
  evidence: EvidenceState | undefined,
  nowMs: number,
  config: LedgerConfig
): TermEvents => {
  const ref = (e: StoredEvent): EventRef => ({ id: e.id, seq: e.seq, type: e.type, recordedAt: e.recordedAt, origin: e.origin })
  const counted = new Set(evidence?.eventIds ?? [])
  const added = events.filter((e) => e.type === "MemoryAdded")
  const lastRevision = events.filter((e) => e.type === "MemoryRevised" && e.event !== null).at(-1)
  return {
    relevance: [...added, ...(lastRevision ? [lastRevision] : [])].map(ref),
    outcome: outcomeRefs(events.filter((e) => counted.has(e.id)), nowMs, config),
    recency: added.map(ref),
    confidence: added.map(ref),
    frequency: [...added, ...events.filter((e) => e.type === "MemoryConfirmed")].map(ref)
  }
}

/** Each outcome's weight now, folding later contradictions the way evolveEvidence does. */
const outcomeRefs = (events: ReadonlyArray<StoredEvent>, nowMs: number, config: LedgerConfig): OutcomeRef[] => {
  const outcomes = events.flatMap((e) => (e.event?._tag === "OutcomeRecorded" ? [{ e, outcome: e.event.outcome }] : []))
  return outcomes.map(({ e, outcome }, i) => {
    const later = outcomes.slice(i + 1)
    const counts = outcome === "failed" ? "failed" : "worked"
    const contradictions = later.filter((l) => (counts === "failed" ? l.outcome !== "failed" : l.outcome === "failed")).length
    const base = outcomeWeights(outcome)
    const weight =
      (counts === "failed" ? base.failed : base.worked) *
      decayFactor(Date.parse(e.recordedAt), nowMs, config.halfLifeDays) *
      Math.pow(config.contradictionDiscount, contradictions)
    return { id: e.id, seq: e.seq, type: e.type, recordedAt: e.recordedAt, origin: e.origin, outcome, weight, counts }
  })
}
