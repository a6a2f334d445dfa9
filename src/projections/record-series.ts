/**
 * A memory's record drawn over time: the decayed worked and failed sums and the outcome score
 * at moments from its first counted outcome to now, each as `recordAt` would have answered
 * then. Pure: the same fold as the evidence projection (`evolveEvidence`) over the outcome
 * events that count, so the last point is the record the memory shows now.
 */
import type { LedgerConfig } from "../config.js"
import type { MemoryId } from "../domain/ids.js"
import type { StoredEvent } from "../events/events.js"
import { evolveEvidence, recordAt, type EvidenceState } from "./evidence-state.js"

export interface RecordPoint {
  readonly at: string
  readonly worked: number
  readonly failed: number
  readonly score: number
  readonly gated: boolean
}

/** Points between outcomes, so that decay is drawn as the curve it is. */
const SAMPLES = 48

/**
 * `outcomes`: the memory's OutcomeRecorded events in log order, those of forgotten
 * conversations already left out (the projection leaves them out too).
 */
export const recordSeries = (
  memoryId: MemoryId,
  outcomes: ReadonlyArray<StoredEvent>,
  nowMs: number,
  config: LedgerConfig
): RecordPoint[] => {
  if (outcomes.length === 0) return []
  const times = outcomes.map((e) => Date.parse(e.recordedAt))
  const first = Math.min(...times)
  const moments = new Set<number>(times)
  for (let i = 0; i <= SAMPLES; i++) moments.add(first + ((nowMs - first) * i) / SAMPLES)
  const points: RecordPoint[] = []
  for (const t of [...moments].filter((m) => m <= nowMs).sort((a, b) => a - b)) {
    let state: EvidenceState | undefined
    outcomes.forEach((event, i) => {
      if (times[i]! <= t) state = evolveEvidence(state, event, memoryId, config.halfLifeDays, config.contradictionDiscount)
    })
    const record = recordAt(state, t, config)
    points.push({ at: new Date(t).toISOString(), worked: record.worked, failed: record.failed, score: record.score, gated: record.gated })
  }
  return points
}
