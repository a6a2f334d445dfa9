/**
 * The reads behind the console's overview and its memory list, as plain SQL over one
 * connection: each takes the `Db` and returns plain rows or values. They run inside a read
 * (one snapshot) that the caller opens; none writes.
 *
 * Each is bounded so that it stays fast on a store of 100,000 memories and a million events
 * (bench/console-api.ts): the list walks the primary key from a cursor, the counts and the
 * outcomes per day are read from the `counts` projection (count-state.ts), the gate scores only
 * the records its index bound lets through (evidence-state.ts `gateFloorMs`).
 */
import type { LedgerConfig } from "../../config.js"
import { DAY_MS, gateFloorMs } from "../../projections/evidence-state.js"
import type { MemoryCounts, DayOutcomes, GatedRow, PageFilter } from "../console-reads.js"
import type { Db } from "./database.js"
import { countMemories } from "../read-folds.js"
import { MEMORY_COLUMNS, type MemoryRow } from "./projections/memories.js"
import { ownerByEvents } from "./memory-queries.js"
import { statement } from "./statements.js"
import type { Viewer } from "../../domain/viewer.js"

/** Every count of memories the overview shows, from the groups `viewer` may see. */
export const memoryCounts = (db: Db, projects: number, viewer: Viewer = null): MemoryCounts => {
  const groups = statement(
    db,
    `SELECT category, project, status, forgotten, superseded, sum(n) AS n FROM memory_counts
      WHERE private_to IS NULL OR private_to IS ? GROUP BY category, project, status, forgotten, superseded`
  ).all(viewer) as Array<{ category: string; project: string | null; status: string; forgotten: number; superseded: number; n: number }>
  return countMemories(groups, projects)
}

/**
 * Outcome reports per UTC day from the day `sinceDay` on, leaving out those of forgotten
 * conversations (they no longer count anywhere else either) and those naming a memory private to
 * someone other than `viewer`, as the reader's log leaves them out (seen-by.ts `eventSeenBy`):
 * whose a memory is, the projections say, or for one they do not hold, its own events. Only days
 * with a report are listed.
 */
export const outcomesByDay = (db: Db, sinceDay: string, viewer: Viewer = null): DayOutcomes[] =>
  statement(
    db,
    `SELECT day, sum(worked) AS worked, sum(failed) AS failed, sum(partial) AS partial FROM (
       SELECT day, origin, worked, failed, partial FROM outcome_days WHERE day >= @since
       UNION ALL
       SELECT day, origin, outcome = 'worked', outcome = 'failed', outcome = 'partial' FROM private_outcomes p
        WHERE day >= @since AND NOT EXISTS (SELECT 1 FROM json_each(p.memory_ids) j WHERE ${OWNER} IS NOT NULL AND ${OWNER} IS NOT @viewer))
      WHERE origin NOT IN (SELECT origin FROM conversations WHERE forgotten = 1)
      GROUP BY day ORDER BY day`
  ).all({ since: sinceDay, viewer }) as DayOutcomes[]

/** Whose the memory `j.value` is: the projections', or, for one they do not hold, what its last event that set it said. */
const OWNER = `(CASE WHEN EXISTS (SELECT 1 FROM memories WHERE id = j.value) THEN (SELECT private_to FROM memories WHERE id = j.value) ELSE (
  ${ownerByEvents("j.value")}) END)`

/**
 * Live memories the failure gate holds back at `nowMs`, lowest score first, and how many there
 * are. The score is recordAt's (evidence-state.ts) written in SQL, so that 100,000 records are
 * not each parsed into JavaScript to find the few that are gated; and only the records whose
 * failures are still recent and many enough to be gated (`gateFloorMs`, through the
 * `evidence_gate` index) are scored at all.
 */
export const gatedMemories = (db: Db, nowMs: number, config: LedgerConfig, limit: number, viewer: Viewer = null): { count: number; memories: GatedRow[] } => {
  const decay = `pow(0.5, (@now - anchor_ms) / ${config.halfLifeDays * DAY_MS}.0)`
  const floor = gateFloorMs(nowMs, config)
  const scored = `SELECT memory_id, worked * ${decay} AS w, failed * ${decay} AS f FROM evidence WHERE ${floor === undefined ? "@floor IS NULL" : "one_failure_at_ms >= @floor"}`
  const gated = `SELECT memory_id, w, f, (w - ${config.failureWeight} * f) / (w + ${config.failureWeight} * f + 2) AS score FROM (${scored})`
  const sql = `SELECT g.memory_id AS id, m.content, g.w AS worked, g.f AS failed, g.score FROM (${gated}) g CROSS JOIN memories m
    ON m.id = g.memory_id WHERE g.score <= @gate AND m.forgotten = 0 AND m.superseded_by IS NULL AND (m.private_to IS NULL OR m.private_to IS @viewer)
    ORDER BY g.score, g.memory_id`
  const rows = statement(db, sql).all({ floor: floor ?? null, now: nowMs, gate: config.failureGate, viewer }) as GatedRow[]
  return { count: rows.length, memories: rows.slice(0, limit) }
}

/**
 * A page of memories, newest first, walked down the primary key from `beforeKey`: a deep page
 * costs what the first one does, where OFFSET would read every row before it.
 */
export const memoryPage = (db: Db, filter: PageFilter): MemoryRow[] => {
  const where: string[] = []
  const args: unknown[] = []
  const add = (clause: string, value: unknown) => {
    where.push(clause)
    args.push(value)
  }
  if (filter.all !== true) where.push("forgotten = 0 AND superseded_by IS NULL")
  add("(private_to IS NULL OR private_to IS ?)", filter.viewer ?? null)
  if (filter.project !== undefined) add("(project = ? OR project IS NULL)", filter.project)
  if (filter.category !== undefined) add("category = ?", filter.category)
  if (filter.status !== undefined) add("status = ?", filter.status)
  if (filter.origin !== undefined) add("origin = ?", filter.origin)
  if (filter.agent !== undefined) add("agent = ?", filter.agent)
  for (const tag of filter.tags ?? []) add("EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?)", tag)
  if (filter.beforeKey !== undefined) add("key < ?", filter.beforeKey)
  const sql = `SELECT ${MEMORY_COLUMNS} FROM memories ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY key DESC LIMIT ?`
  return statement(db, sql).all(...args, filter.limit) as MemoryRow[]
}

/** Whom each memory among `ids` is private to (null: shared); those no projection holds are left out. */
export const ownersOf = (db: Db, ids: ReadonlyArray<string>): Map<string, string | null> => {
  if (ids.length === 0) return new Map()
  const rows = statement(db, "SELECT id, private_to FROM memories WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids)) as Array<{
    id: string
    private_to: string | null
  }>
  return new Map(rows.map((r) => [r.id, r.private_to]))
}

/** A few memories' text by id, for naming them beside the events that cite them. */
export const memoryTexts = (db: Db, ids: ReadonlyArray<string>): Map<string, string> => {
  if (ids.length === 0) return new Map()
  const rows = statement(db, "SELECT id, content FROM memories WHERE id IN (SELECT value FROM json_each(?))").all(JSON.stringify(ids)) as Array<{
    id: string
    content: string
  }>
  return new Map(rows.map((r) => [r.id, r.content]))
}
