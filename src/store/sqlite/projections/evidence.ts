/** The `evidence` projection: decayed outcome sums per memory (see evidence-state.ts). */
import type { MemoryId } from "../../../domain/ids.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { oneFailureAtMs, type EvidenceState } from "../../../projections/evidence-state.js"
import { rowToEvidence, type EvidenceRow } from "../../projection-rows.js"

export { rowToEvidence, type EvidenceRow }
import type { Projection } from "./projection.js"

export const evidenceProjection: Projection = {
  name: "evidence",
  // 2: one_failure_at_ms, by which the overview finds the memories the gate holds back.
  version: 2,
  create: (db) =>
    db.exec(`
      CREATE TABLE IF NOT EXISTS evidence (
        memory_id TEXT PRIMARY KEY,
        worked REAL NOT NULL,
        failed REAL NOT NULL,
        anchor_ms INTEGER NOT NULL,
        worked_count INTEGER NOT NULL,
        failed_count INTEGER NOT NULL,
        partial_count INTEGER NOT NULL,
        event_ids TEXT NOT NULL,
        one_failure_at_ms REAL
      ) STRICT;
      -- Holds what the gate scores, so that the records it finds are read from the index alone
      -- rather than from a page of the table each (12 ms of a first overview at 1,000,000 events).
      CREATE INDEX IF NOT EXISTS evidence_gate ON evidence(one_failure_at_ms, memory_id, worked, failed, anchor_ms);
    `),
  drop: (db) => db.exec("DROP TABLE IF EXISTS evidence")
}

export const loadEvidence = (db: Db, memoryId: string): EvidenceState | undefined => {
  const row = statement(db, "SELECT * FROM evidence WHERE memory_id = ?").get(memoryId) as EvidenceRow | undefined
  return row && rowToEvidence(row)
}

/**
 * The evidence of many memories in one query (memories without evidence have no row, so most
 * of a candidate list costs nothing); the same rows `loadEvidence` reads one at a time.
 */
export const loadEvidenceOf = (db: Db, memoryIds: ReadonlyArray<string>): Map<string, EvidenceState> => {
  if (memoryIds.length === 0) return new Map()
  const rows = statement(db, "SELECT * FROM evidence WHERE memory_id IN (SELECT value FROM json_each(?))").all(JSON.stringify(memoryIds)) as EvidenceRow[]
  return new Map(rows.map((row) => [row.memory_id, rowToEvidence(row)]))
}

/** `halfLifeDays`: the half-life the evidence was folded with, which `one_failure_at_ms` decays by. */
export const writeEvidence = (db: Db, e: EvidenceState, halfLifeDays: number): void => {
  statement(
    db,
    `INSERT INTO evidence (memory_id, worked, failed, anchor_ms, worked_count, failed_count, partial_count, event_ids, one_failure_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(memory_id) DO UPDATE SET worked = excluded.worked, failed = excluded.failed, anchor_ms = excluded.anchor_ms,
       worked_count = excluded.worked_count, failed_count = excluded.failed_count, partial_count = excluded.partial_count,
       event_ids = excluded.event_ids, one_failure_at_ms = excluded.one_failure_at_ms`
  ).run(e.memoryId, e.worked, e.failed, e.anchorMs, e.workedCount, e.failedCount, e.partialCount, JSON.stringify(e.eventIds), oneFailureAtMs(e, halfLifeDays))
}

export const deleteEvidence = (db: Db, memoryId: string): void => {
  statement(db, "DELETE FROM evidence WHERE memory_id = ?").run(memoryId)
}
