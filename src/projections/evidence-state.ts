/**
 * The `evidence` projection's pure fold: per memory, the decayed worked and failed counts.
 *
 * Exact and O(1) (docs/ranking.md, "Outcome record, with decay"): each sum is kept anchored at
 * `anchorMs`, the time of the latest outcome. A new outcome at time t >= anchor rescales the sums
 * to t and adds its weight; an older one (an import) adds its weight already decayed to the
 * anchor. Reading at `now` multiplies by 0.5^((now - anchor) / halfLife). This equals the sum over
 * the events of weight x 0.5^((now - t) / halfLife), which a property test checks.
 */
import type { LedgerConfig } from "../config.js"
import type { MemoryId } from "../domain/ids.js"
import type { Outcome } from "../domain/vocabulary.js"
import type { StoredEvent } from "../events/events.js"

export interface EvidenceState {
  readonly memoryId: MemoryId
  readonly worked: number
  readonly failed: number
  readonly anchorMs: number
  readonly workedCount: number
  readonly failedCount: number
  readonly partialCount: number
  /** Ids of the OutcomeRecorded events behind the sums, oldest first. */
  readonly eventIds: ReadonlyArray<string>
}

export const DAY_MS = 86_400_000

/** What one report adds: `partial` is a quarter of a success. */
export const outcomeWeights = (outcome: Outcome): { worked: number; failed: number } => {
  switch (outcome) {
    case "worked":
      return { worked: 1, failed: 0 }
    case "failed":
      return { worked: 0, failed: 1 }
    case "partial":
      return { worked: 0.25, failed: 0 }
  }
}

export const decayFactor = (fromMs: number, toMs: number, halfLifeDays: number): number =>
  Math.pow(0.5, (toMs - fromMs) / (halfLifeDays * DAY_MS))

/**
 * `contradictionDiscount` (1 = off, the plain outcome score): a failure multiplies the
 * successes before it by this, and a success or partial multiplies the failures before it.
 * Repeated agreement never discounts, so ten successes still score 0.83.
 */
export const evolveEvidence = (
  state: EvidenceState | undefined,
  stored: StoredEvent,
  memoryId: MemoryId,
  halfLifeDays: number,
  contradictionDiscount = 1
): EvidenceState | undefined => {
  const event = stored.event
  if (event === null || event._tag !== "OutcomeRecorded" || !event.memoryIds.includes(memoryId)) return state
  const t = Date.parse(stored.recordedAt)
  const add = outcomeWeights(event.outcome)
  const base: EvidenceState = state ?? {
    memoryId,
    worked: 0,
    failed: 0,
    anchorMs: t,
    workedCount: 0,
    failedCount: 0,
    partialCount: 0,
    eventIds: []
  }
  const anchorMs = Math.max(base.anchorMs, t)
  const rescale = decayFactor(base.anchorMs, anchorMs, halfLifeDays)
  const weight = decayFactor(t, anchorMs, halfLifeDays)
  const failing = event.outcome === "failed"
  return {
    memoryId,
    worked: base.worked * rescale * (failing ? contradictionDiscount : 1) + add.worked * weight,
    failed: base.failed * rescale * (failing ? 1 : contradictionDiscount) + add.failed * weight,
    anchorMs,
    workedCount: base.workedCount + (event.outcome === "worked" ? 1 : 0),
    failedCount: base.failedCount + (event.outcome === "failed" ? 1 : 0),
    partialCount: base.partialCount + (event.outcome === "partial" ? 1 : 0),
    eventIds: [...base.eventIds, stored.id]
  }
}

/** The decayed counts as of `nowMs`. */
/** What ranking needs of a memory's evidence: the sums and the time they are anchored at. */
export type EvidenceSums = Pick<EvidenceState, "worked" | "failed" | "anchorMs">

export const decayedCounts = (e: EvidenceSums, nowMs: number, halfLifeDays: number) => {
  const k = decayFactor(e.anchorMs, nowMs, halfLifeDays)
  return { worked: e.worked * k, failed: e.failed * k }
}

/** The outcome score `(w - 1.5 f) / (w + 1.5 f + 2)`, in (-1, 1). */
export const outcomeScore = (worked: number, failed: number, failureWeight = 1.5): number =>
  (worked - failureWeight * failed) / (worked + failureWeight * failed + 2)

/** A memory's record as of `nowMs`: decayed counts, the score, and whether the failure gate holds it back. */
export const recordAt = (e: EvidenceState | undefined, nowMs: number, config: LedgerConfig) => {
  const { worked, failed } = e === undefined ? { worked: 0, failed: 0 } : decayedCounts(e, nowMs, config.halfLifeDays)
  const score = outcomeScore(worked, failed, config.failureWeight)
  return { worked, failed, score, gated: e !== undefined && score <= config.failureGate }
}

/**
 * When the decayed failed sum is exactly 1 (more before, less after), or null without failures:
 * `failed` halves every half-life from `anchorMs`. Kept with a memory's evidence, so that the
 * memories the gate may hold back are found through an index (`gateFloorMs`) rather than by
 * scoring every record.
 */
export const oneFailureAtMs = (e: EvidenceSums, halfLifeDays: number): number | null =>
  e.failed > 0 ? e.anchorMs + halfLifeDays * DAY_MS * Math.log2(e.failed) : null

/**
 * The least `oneFailureAtMs` of any memory the gate holds back at `nowMs`; undefined where the
 * gate is not bounded so (a gate at or above 0 holds back records without failures).
 *
 * The score (w - a f) / (w + a f + 2) grows with w, so it is at least -a f / (a f + 2), its value
 * at w = 0. A score at or below the gate g (-1 < g < 0) thus needs a f (1 + g) >= -2 g, that is
 * f >= c = -2 g / (a (1 + g)); and f = failed x 0.5^((now - anchor) / H) >= c exactly when
 * anchor + H log2(failed) >= now + H log2(c). A second is taken off that bound, far more than
 * rounding moves either side: the few records above it are then scored as the gate scores them.
 */
export const gateFloorMs = (nowMs: number, config: LedgerConfig): number | undefined => {
  const { failureGate: g, failureWeight: a } = config
  if (!(g < 0 && g > -1 && a > 0)) return undefined
  return nowMs + config.halfLifeDays * DAY_MS * Math.log2((-2 * g) / (a * (1 + g))) - 1000
}
