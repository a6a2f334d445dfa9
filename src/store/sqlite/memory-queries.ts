/**
 * The memory listings and counts that read several rows at once: what a context without
 * a query offers, the near-duplicate neighbours of a new text, and the counts `stats` reports.
 */
import type { LedgerConfig } from "../../config.js"
import { recordAt } from "../../projections/evidence-state.js"
import type { MemoryState } from "../../projections/memory-state.js"
import type { QueryVector } from "../../retrieval/candidate.js"
import { ftsMatchExpression } from "../../retrieval/fts-query.js"
import type { StoreCounts } from "../ledger-reads.js"
import type { Db } from "./database.js"
import { eventCount } from "./event-log.js"
import { rowToEvidence } from "./projections/evidence.js"
import { inPlaces, placeTokensOf } from "./projections/fts-scope.js"
import { MEMORY_COLUMNS, rowToMemory, type MemoryRow } from "./projections/memories.js"
import { sqliteVectorSearch } from "./projections/vector-search.js"
import { vectorNeighbours as vectorNeighboursShared } from "../vector-reads.js"
import { statement } from "./statements.js"
import type { Viewer } from "../../domain/viewer.js"

/** Confirmed first, then the newest; at most 1,000 (context selection ranks them by record); those `viewer` sees. */
export const offeredUnasked = (db: Db, project: string | null, viewer: Viewer = null): MemoryState[] =>
  (
    statement(
      db,
      `SELECT ${MEMORY_COLUMNS} FROM memories
        WHERE forgotten = 0 AND superseded_by IS NULL AND instruction_like = 0 AND (project IS NULL OR project IS ?)
          AND (private_to IS NULL OR private_to IS ?)
        ORDER BY confirmations DESC, key DESC LIMIT 1000`
    ).all(project, viewer) as MemoryRow[]
  ).map(rowToMemory)

/** Live memories of the project or global that the reader sees; `m` is the memories table's alias. */
const IN_SCOPE = "m.forgotten = 0 AND m.superseded_by IS NULL AND (m.project IS NULL OR m.project IS ?) AND (m.private_to IS NULL OR m.private_to IS ?)"

export const keywordNeighbours = (db: Db, content: string, project: string | null, count: number, viewer: Viewer = null): MemoryState[] => {
  const match = ftsMatchExpression(content)
  if (match === undefined) return []
  const keys = statement(db, "SELECT rowid AS key FROM memories_fts WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts, 1, 1, 1, 1, 1, 0) LIMIT ?").all(
    inPlaces(match, placeTokensOf(project, true, viewer)),
    count
  ) as { key: number }[]
  return liveByKeys(db, keys.map((k) => k.key), project, viewer)
}

export const vectorNeighbours = (db: Db, vector: QueryVector, project: string | null, count: number, viewer: Viewer = null) =>
  vectorNeighboursShared(sqliteVectorSearch(db), (keys, p, v) => liveByKeys(db, keys, p, v), vector, project, count, viewer)

const liveByKeys = (db: Db, keys: ReadonlyArray<number>, project: string | null, viewer: Viewer): MemoryState[] =>
  keys.length === 0
    ? []
    : (db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.key IN (${keys.join(",")}) AND ${IN_SCOPE}`).all(project, viewer) as MemoryRow[]).map(
        rowToMemory
      )

export const storeCounts = (db: Db, nowMs: number, config: LedgerConfig): StoreCounts => {
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n
  const byCategory = Object.fromEntries(
    (db.prepare("SELECT category, count(*) AS n FROM memories WHERE forgotten = 0 AND superseded_by IS NULL GROUP BY category").all() as {
      category: string
      n: number
    }[]).map((r) => [r.category, r.n])
  )
  const outcomes = db
    .prepare("SELECT coalesce(sum(worked_count),0) AS worked, coalesce(sum(failed_count),0) AS failed, coalesce(sum(partial_count),0) AS partial FROM evidence")
    .get() as StoreCounts["outcomes"]
  return {
    events: eventCount(db),
    memories: {
      live: count("SELECT count(*) AS n FROM memories WHERE forgotten = 0 AND superseded_by IS NULL"),
      forgotten: count("SELECT count(*) AS n FROM memories WHERE forgotten = 1"),
      superseded: count("SELECT count(*) AS n FROM memories WHERE superseded_by IS NOT NULL AND forgotten = 0")
    },
    byCategory,
    projects: count("SELECT count(DISTINCT project) AS n FROM memories WHERE project IS NOT NULL"),
    conversations: {
      total: count("SELECT count(*) AS n FROM conversations"),
      forgotten: count("SELECT count(*) AS n FROM conversations WHERE forgotten = 1")
    },
    outcomes,
    records: records(db, nowMs, config)
  }
}

const records = (db: Db, nowMs: number, config: LedgerConfig): StoreCounts["records"] => {
  const rows = db
    .prepare("SELECT e.* FROM evidence e JOIN memories m ON m.id = e.memory_id WHERE m.forgotten = 0 AND m.superseded_by IS NULL")
    .all() as Parameters<typeof rowToEvidence>[0][]
  const gated = rows.filter((row) => recordAt(rowToEvidence(row), nowMs, config).gated).length
  return { memories: rows.length, gated }
}
