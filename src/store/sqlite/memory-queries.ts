/**
 * The memory listings and counts that read several rows at once: what a context without
 * a query offers, the near-duplicate neighbours of a new text, and the counts `stats` reports,
 * each of what its reader sees.
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

/**
 * What `stats` counts, of what `viewer` sees (domain/viewer.ts): another person's private
 * memories are left out of every count, with their outcomes, and the conversations and the
 * events of the log that the reader's `mem log` and conversations list leave out (seen-by.ts).
 */
export const storeCounts = (db: Db, nowMs: number, config: LedgerConfig, viewer: Viewer = null): StoreCounts => {
  const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n
  const seen = "(private_to IS NULL OR private_to IS ?)"
  const byCategory = Object.fromEntries(
    (db.prepare(`SELECT category, count(*) AS n FROM memories WHERE forgotten = 0 AND superseded_by IS NULL AND ${seen} GROUP BY category`).all(viewer) as {
      category: string
      n: number
    }[]).map((r) => [r.category, r.n])
  )
  // Evidence of a memory no projection holds (its conversation is forgotten) counts as it did.
  const outcomes = db
    .prepare(
      `SELECT coalesce(sum(worked_count),0) AS worked, coalesce(sum(failed_count),0) AS failed, coalesce(sum(partial_count),0) AS partial
         FROM evidence e LEFT JOIN memories m ON m.id = e.memory_id WHERE m.private_to IS NULL OR m.private_to IS ?`
    )
    .get(viewer) as StoreCounts["outcomes"]
  const conversationSeen = "NOT EXISTS (SELECT 1 FROM json_each(private_authors) WHERE value IS NOT ?)"
  return {
    events: eventCount(db) - count(UNSEEN_EVENTS, viewer, viewer, viewer),
    memories: {
      live: count(`SELECT count(*) AS n FROM memories WHERE forgotten = 0 AND superseded_by IS NULL AND ${seen}`, viewer),
      forgotten: count(`SELECT count(*) AS n FROM memories WHERE forgotten = 1 AND ${seen}`, viewer),
      superseded: count(`SELECT count(*) AS n FROM memories WHERE superseded_by IS NOT NULL AND forgotten = 0 AND ${seen}`, viewer)
    },
    byCategory,
    projects: count(`SELECT count(DISTINCT project) AS n FROM memories WHERE project IS NOT NULL AND ${seen}`, viewer),
    conversations: {
      total: count(`SELECT count(*) AS n FROM conversations WHERE ${conversationSeen}`, viewer),
      forgotten: count(`SELECT count(*) AS n FROM conversations WHERE forgotten = 1 AND ${conversationSeen}`, viewer)
    },
    outcomes,
    records: records(db, nowMs, config, viewer)
  }
}

/**
 * The events a reader's log leaves out (seen-by.ts `eventSeenBy`): those not purged that concern
 * a memory private to someone else. A memory the projections hold says whose it is; one they do
 * not (its conversation is forgotten) is its own events' to say, the last that set its visibility.
 * Parameters: the viewer, three times.
 */
/**
 * Whose the memory `id` (an SQL expression) is by its own events: the author of the last that set
 * its visibility, when that made it private; null when shared. For memories the projections do
 * not hold.
 */
export const ownerByEvents = (id: string): string => `
  SELECT CASE WHEN json_extract(v.payload, '$.visibility') = 'private' THEN v.author END
    FROM event_memories vm JOIN events v ON v.seq = vm.seq
   WHERE vm.memory_id = ${id} AND v.payload IS NOT NULL
     AND ((v.type = 'MemoryAdded' AND json_extract(v.payload, '$.memoryId') = ${id})
       OR (v.type = 'MemoryRevised' AND (json_extract(v.payload, '$.visibility') = 'shared'
                                         OR (json_extract(v.payload, '$.visibility') = 'private' AND v.author IS NOT NULL))))
   ORDER BY v.seq DESC LIMIT 1`

const UNSEEN_EVENTS = `
  SELECT count(DISTINCT em.seq) AS n FROM event_memories em JOIN events e ON e.seq = em.seq
   WHERE e.payload IS NOT NULL AND em.memory_id IN (
     SELECT id FROM memories WHERE private_to IS NOT NULL AND private_to IS NOT ?
     UNION ALL
     SELECT h.id FROM (SELECT DISTINCT memory_id AS id FROM event_memories WHERE memory_id NOT IN (SELECT id FROM memories)) h
      WHERE coalesce((
${ownerByEvents("h.id")}), ?) IS NOT ?)`

const records = (db: Db, nowMs: number, config: LedgerConfig, viewer: Viewer): StoreCounts["records"] => {
  const rows = db
    .prepare(
      "SELECT e.* FROM evidence e JOIN memories m ON m.id = e.memory_id WHERE m.forgotten = 0 AND m.superseded_by IS NULL AND (m.private_to IS NULL OR m.private_to IS ?)"
    )
    .all(viewer) as Parameters<typeof rowToEvidence>[0][]
  const gated = rows.filter((row) => recordAt(rowToEvidence(row), nowMs, config).gated).length
  return { memories: rows.length, gated }
}
