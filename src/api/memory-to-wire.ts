/** Turns a memory's projected state and evidence into its wire form, with the record as of now. */
import type { LedgerConfig } from "../config.js"
import { recordAt, type EvidenceState } from "../projections/evidence-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import type { Memory, MemoryRecord } from "./memory-wire.js"

// Object.assign: on Node 20 a spread followed by new properties takes V8's slow path.
export const recordOf = (evidence: EvidenceState | undefined, nowMs: number, config: LedgerConfig): MemoryRecord =>
  Object.assign(recordAt(evidence, nowMs, config), {
    workedCount: evidence?.workedCount ?? 0,
    failedCount: evidence?.failedCount ?? 0,
    partialCount: evidence?.partialCount ?? 0
  })

export const memoryToWire = (
  memory: MemoryState,
  shortId: string,
  evidence: EvidenceState | undefined,
  nowMs: number,
  config: LedgerConfig
): Memory => ({
  id: memory.id,
  shortId,
  content: memory.content,
  category: memory.category,
  scope: memory.scope,
  project: memory.project,
  tags: memory.tags,
  cues: memory.cues,
  source: memory.source,
  status: memory.status,
  confidence: memory.confidence,
  confirmations: memory.confirmations,
  createdAt: memory.createdAt,
  updatedAt: memory.updatedAt,
  origin: memory.origin,
  agent: memory.agent,
  forgotten: memory.forgotten,
  forgottenReason: memory.forgotten ? memory.forgottenReason : null,
  supersededBy: memory.supersededBy,
  distinctFrom: memory.distinctFrom,
  instructionLike: memory.instructionLike,
  ...(memory.privateTo === null ? {} : { private: true as const }),
  record: recordOf(evidence, nowMs, config)
})
