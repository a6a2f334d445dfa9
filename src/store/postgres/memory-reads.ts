/**
 * The reads of memories, conversations and counts on PostgreSQL (each of what its reader sees):
 * the same answers as the SQLite store's (the read contract holds both to them), in PostgreSQL's SQL.
 */
import { Either } from "effect"
import type { LedgerConfig } from "../../config.js"
import { AmbiguousId, InvalidId, MemoryNotFound } from "../../domain/errors.js"
import { ID_PREFIX_MIN, type MemoryId } from "../../domain/ids.js"
import { DAY_MS, gateFloorMs, recordAt } from "../../projections/evidence-state.js"
import type { MemoryState } from "../../projections/memory-state.js"
import type { DayOutcomes, GatedRow, MemoryCounts, PageFilter, RecentTasks } from "../console-reads.js"
import type { StoreCounts } from "../ledger-reads.js"
import { MEMORY_COLUMNS, rowToEvidence, rowToMemory, type EvidenceRow, type MemoryRow } from "../projection-rows.js"
import type { ChainBreak } from "../store-maintenance.js"
import { lastEvent } from "./event-log.js"
import { countMemories, scanTasks, shortestUniquePrefix } from "../read-folds.js"
import type { SyncPg } from "./sync-client.js"
import { loadEvidenceOf } from "./projections.js"
import type { EvidenceState } from "../../projections/evidence-state.js"
import type { Scope } from "../../retrieval/candidate.js"
import type { Viewer } from "../../domain/viewer.js"

const LIVE = "forgotten = 0 AND superseded_by IS NULL"

export const memoriesWhere = (db: SyncPg, where: string, args: ReadonlyArray<unknown>, tail = ""): MemoryState[] =>
  db.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE ${where} ${tail}`, args).map(rowToMemory)

export const memoriesByKey = (db: SyncPg, keys: ReadonlyArray<number>): Map<number, MemoryState> =>
  keys.length === 0 ? new Map() : new Map(memoriesWhere(db, "key = ANY($1)", [keys]).map((m) => [m.key, m]))

/** Whether the reader in parameter `n` sees a memory (domain/viewer.ts). */
const SEEN_BY = (n: number) => `(private_to IS NULL OR private_to IS NOT DISTINCT FROM $${n})`

/** Global memories and those of the project in parameter `n`. */
const IN_PLACES = (n: number) => `(project IS NULL OR project IS NOT DISTINCT FROM $${n})`

/** Live memories of the project (or global) among `keys` that `viewer` sees, by key. */
export const liveByKeys = (db: SyncPg, keys: ReadonlyArray<number>, project: string | null, viewer: Viewer = null): MemoryState[] =>
  keys.length === 0
    ? []
    : memoriesWhere(db, `key = ANY($1) AND ${LIVE} AND ${IN_PLACES(2)} AND ${SEEN_BY(3)}`, [keys, project, viewer], "ORDER BY key")

/** The live memories among `keys` in `scope` (its places, reader and category), by key, with their evidence. */
export const liveInScope = (
  db: SyncPg,
  keys: ReadonlyArray<number>,
  scope: Scope
): Array<{ memory: MemoryState; evidence: EvidenceState | undefined }> => {
  if (keys.length === 0) return []
  const category = scope.category === undefined ? "" : "AND category = $4"
  const memories = memoriesWhere(
    db,
    `key = ANY($1) AND ${LIVE} AND ${IN_PLACES(2)} AND ${SEEN_BY(3)} ${category}`,
    [keys, scope.project, scope.viewer ?? null, ...(scope.category === undefined ? [] : [scope.category])],
    "ORDER BY key"
  )
  const evidence = loadEvidenceOf(db, memories.map((m) => m.id))
  return memories.map((memory) => ({ memory, evidence: evidence.get(memory.id) }))
}

export const offeredUnasked = (db: SyncPg, project: string | null, viewer: Viewer = null): MemoryState[] =>
  memoriesWhere(
    db,
    `${LIVE} AND instruction_like = 0 AND (project IS NULL OR project IS NOT DISTINCT FROM $1) AND ${SEEN_BY(2)}`,
    [project, viewer],
    "ORDER BY confirmations DESC, key DESC LIMIT 1000"
  )

export const findRestatement = (db: SyncPg, contentKey: string, scope: string, project: string | null, viewer: Viewer = null): MemoryState | undefined =>
  memoriesWhere(
    db,
    `content_key = $1 AND scope = $2 AND project IS NOT DISTINCT FROM $3 AND ${LIVE} AND ${SEEN_BY(4)}`,
    [contentKey, scope, project, viewer],
    "ORDER BY key LIMIT 1"
  )[0]

const PREFIX_CHARS = /^[0-9a-hjkmnp-tv-z]+$/

export const resolveMemoryId = (db: SyncPg, typed: string): Either.Either<MemoryId, InvalidId | MemoryNotFound | AmbiguousId> => {
  const prefix = typed.trim().toLowerCase()
  if (prefix.length < ID_PREFIX_MIN) return Either.left(new InvalidId({ id: typed, reason: `type at least ${ID_PREFIX_MIN} characters` }))
  if (prefix.length > 26 || !PREFIX_CHARS.test(prefix)) {
    return Either.left(new InvalidId({ id: typed, reason: "ids are up to 26 characters of 0-9 and a-z without i, l, o, u" }))
  }
  const rows = db.query<{ id: MemoryId }>(`SELECT id FROM memories WHERE id >= $1 AND id < $2 ORDER BY id LIMIT 5`, [prefix, `${prefix}~`])
  const [first, second] = rows
  if (first === undefined) return Either.left(new MemoryNotFound({ id: typed }))
  if (second !== undefined) return Either.left(new AmbiguousId({ prefix, candidates: rows.map((r) => shortId(db, r.id)) }))
  return Either.right(first.id)
}

export const shortId = (db: SyncPg, id: string): string => {
  const { before, after } = db.one<{ before: string | null; after: string | null }>(
    "SELECT (SELECT id FROM memories WHERE id < $1 ORDER BY id DESC LIMIT 1) AS before, (SELECT id FROM memories WHERE id > $1 ORDER BY id LIMIT 1) AS after",
    [id]
  )!
  return shortestUniquePrefix(id, before, after)
}

/** shortId of each id, in one statement rather than a round trip each. */
export const shortIds = (db: SyncPg, ids: ReadonlyArray<string>): Map<string, string> => {
  const rows = db.query<{ id: string; before: string | null; after: string | null }>(
    `SELECT i.id, (SELECT id FROM memories WHERE id < i.id ORDER BY id DESC LIMIT 1) AS before,
            (SELECT id FROM memories WHERE id > i.id ORDER BY id LIMIT 1) AS after
       FROM unnest($1::text[]) AS i(id)`,
    [ids]
  )
  return new Map(rows.map((r) => [r.id, shortestUniquePrefix(r.id, r.before, r.after)]))
}


/**
 * What `stats` counts, of what `viewer` sees: another person's private memories are left out of
 * every count, with their outcomes, and the conversations and the events of the log that the
 * reader's `mem log` and conversations list leave out (seen-by.ts), as on SQLite.
 */
export const storeCounts = (db: SyncPg, nowMs: number, config: LedgerConfig, viewer: Viewer = null): StoreCounts => {
  const count = (sql: string) => db.one<{ n: number }>(sql, [viewer])!.n
  const byCategory = Object.fromEntries(
    db
      .query<{ category: string; n: number }>(`SELECT category, count(*) AS n FROM memories WHERE ${LIVE} AND ${SEEN_BY(1)} GROUP BY category`, [viewer])
      .map((r) => [r.category, r.n])
  )
  // Evidence of a memory no projection holds (its conversation is forgotten) counts as it did.
  const outcomes = db.one<StoreCounts["outcomes"]>(
    `SELECT coalesce(sum(worked_count),0) AS worked, coalesce(sum(failed_count),0) AS failed, coalesce(sum(partial_count),0) AS partial
       FROM evidence e LEFT JOIN memories m ON m.id = e.memory_id WHERE m.private_to IS NULL OR m.private_to IS NOT DISTINCT FROM $1`,
    [viewer]
  )!
  const records = db.query<EvidenceRow>(
    `SELECT e.* FROM evidence e JOIN memories m ON m.id = e.memory_id
      WHERE m.forgotten = 0 AND m.superseded_by IS NULL AND (m.private_to IS NULL OR m.private_to IS NOT DISTINCT FROM $1)`,
    [viewer]
  )
  const conversationSeen = "NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(private_authors::jsonb) a(name) WHERE a.name IS DISTINCT FROM $1)"
  return {
    events: (lastEvent(db)?.seq ?? 0) - count(UNSEEN_EVENTS),
    memories: {
      live: count(`SELECT count(*) AS n FROM memories WHERE ${LIVE} AND ${SEEN_BY(1)}`),
      forgotten: count(`SELECT count(*) AS n FROM memories WHERE forgotten = 1 AND ${SEEN_BY(1)}`),
      superseded: count(`SELECT count(*) AS n FROM memories WHERE superseded_by IS NOT NULL AND forgotten = 0 AND ${SEEN_BY(1)}`)
    },
    byCategory,
    projects: count(`SELECT count(DISTINCT project) AS n FROM memories WHERE project IS NOT NULL AND ${SEEN_BY(1)}`),
    conversations: {
      total: count(`SELECT count(*) AS n FROM conversations WHERE ${conversationSeen}`),
      forgotten: count(`SELECT count(*) AS n FROM conversations WHERE forgotten = 1 AND ${conversationSeen}`)
    },
    outcomes,
    records: { memories: records.length, gated: records.filter((row) => recordAt(rowToEvidence(row), nowMs, config).gated).length }
  }
}

/**
 * The events a reader's log leaves out (seen-by.ts `eventSeenBy`): those not purged that concern
 * a memory private to someone else ($1 is the reader). A memory the projections hold says whose
 * it is; one they do not (its conversation is forgotten) is its own events' to say, the last
 * that set its visibility.
 */
/**
 * Whose the memory `id` (an SQL expression) is by its own events: the author of the last that set
 * its visibility, when that made it private; null when shared. For memories the projections do
 * not hold.
 */
const ownerByEvents = (id: string): string => `
  SELECT CASE WHEN v.payload::jsonb ->> 'visibility' = 'private' THEN v.author END
    FROM event_memories vm JOIN events v ON v.seq = vm.seq
   WHERE vm.memory_id = ${id} AND v.payload IS NOT NULL
     AND ((v.type = 'MemoryAdded' AND v.payload::jsonb ->> 'memoryId' = ${id})
       OR (v.type = 'MemoryRevised' AND (v.payload::jsonb ->> 'visibility' = 'shared'
                                         OR (v.payload::jsonb ->> 'visibility' = 'private' AND v.author IS NOT NULL))))
   ORDER BY v.seq DESC LIMIT 1`

const UNSEEN_EVENTS = `
  SELECT count(DISTINCT em.seq) AS n FROM event_memories em JOIN events e ON e.seq = em.seq
   WHERE e.payload IS NOT NULL AND em.memory_id IN (
     SELECT id FROM memories WHERE private_to IS NOT NULL AND private_to IS DISTINCT FROM $1
     UNION ALL
     SELECT h.id FROM (SELECT DISTINCT memory_id AS id FROM event_memories em2 WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = em2.memory_id)) h
      WHERE coalesce((
${ownerByEvents("h.id")}), $1) IS DISTINCT FROM $1)`

/** Every count of memories the overview shows, from the groups of the `counts` projection `viewer` may see. */
export const memoryCounts = (db: SyncPg, projects: number, viewer: Viewer = null): MemoryCounts => {
  const groups = db.query<{ category: string; project: string | null; status: string; forgotten: number; superseded: number; n: number }>(
    `SELECT category, project, status, forgotten, superseded, sum(n) AS n
       FROM memory_counts WHERE ${SEEN_BY(1)} GROUP BY category, project, status, forgotten, superseded`,
    [viewer]
  )
  return countMemories(groups, projects)
}

/**
 * Outcome reports per UTC day from the day `sinceDay` on, those of forgotten conversations left
 * out, and those naming a memory private to someone other than the reader ($2), as the reader's
 * log leaves them out: whose a memory is, the projections say, or for one they do not hold, its
 * own events (the rule of UNSEEN_EVENTS).
 */
export const outcomesByDay = (db: SyncPg, sinceDay: string, viewer: Viewer = null): DayOutcomes[] =>
  db.query<DayOutcomes>(
    `SELECT day, sum(worked)::int AS worked, sum(failed)::int AS failed, sum(partial)::int AS partial FROM (
       SELECT day, origin, worked, failed, partial FROM outcome_days WHERE day >= $1
       UNION ALL
       SELECT day, origin, (outcome = 'worked')::int, (outcome = 'failed')::int, (outcome = 'partial')::int FROM private_outcomes p
        WHERE day >= $1 AND NOT EXISTS (
          SELECT 1 FROM json_array_elements_text(p.memory_ids::json) AS j(id) CROSS JOIN LATERAL (SELECT ${OWNER} AS owner) o
           WHERE o.owner IS NOT NULL AND o.owner IS DISTINCT FROM $2)) d
      WHERE origin NOT IN (SELECT origin FROM conversations WHERE forgotten = 1)
      GROUP BY day ORDER BY day`,
    [sinceDay, viewer]
  )

/** Whose the memory `j.id` is: the projections', or, for one they do not hold, what its last event that set it said. */
const OWNER = `CASE WHEN EXISTS (SELECT 1 FROM memories WHERE id = j.id) THEN (SELECT private_to FROM memories WHERE id = j.id) ELSE (
  ${ownerByEvents("j.id")}) END`

/**
 * Live memories the failure gate holds back at `nowMs`: recordAt's score in SQL, of the records
 * the `evidence_gate` index lets through (evidence-state.ts `gateFloorMs`).
 */
export const gatedMemories = (db: SyncPg, nowMs: number, config: LedgerConfig, limit: number, viewer: Viewer = null): { count: number; memories: GatedRow[] } => {
  const decay = `power(0.5, ($1::float8 - anchor_ms) / ${config.halfLifeDays * DAY_MS}.0)`
  const floor = gateFloorMs(nowMs, config)
  const bounded = floor === undefined ? "$4::float8 IS NULL" : "one_failure_at_ms >= $4::float8"
  const scored = `SELECT memory_id, worked * ${decay} AS w, failed * ${decay} AS f FROM evidence WHERE ${bounded}`
  const gated = `SELECT memory_id, w, f, (w - ${config.failureWeight} * f) / (w + ${config.failureWeight} * f + 2) AS score FROM (${scored}) s`
  const rows = db.query<GatedRow>(
    `SELECT g.memory_id AS id, m.content, g.w AS worked, g.f AS failed, g.score FROM (${gated}) g JOIN memories m ON m.id = g.memory_id
      WHERE g.score <= $2 AND m.forgotten = 0 AND m.superseded_by IS NULL AND (m.private_to IS NULL OR m.private_to IS NOT DISTINCT FROM $3)
      ORDER BY g.score, g.memory_id`,
    [nowMs, config.failureGate, viewer, floor ?? null]
  )
  return { count: rows.length, memories: rows.slice(0, limit) }
}

export const memoryPage = (db: SyncPg, filter: PageFilter): MemoryState[] => {
  const where: string[] = ["TRUE"]
  const args: unknown[] = []
  const add = (clause: (n: string) => string, value: unknown) => {
    args.push(value)
    where.push(clause(`$${args.length}`))
  }
  if (filter.all !== true) where.push(LIVE)
  add((p) => `(private_to IS NULL OR private_to IS NOT DISTINCT FROM ${p})`, filter.viewer ?? null)
  if (filter.project !== undefined) add((p) => `(project = ${p} OR project IS NULL)`, filter.project)
  if (filter.category !== undefined) add((p) => `category = ${p}`, filter.category)
  if (filter.status !== undefined) add((p) => `status = ${p}`, filter.status)
  if (filter.origin !== undefined) add((p) => `origin = ${p}`, filter.origin)
  if (filter.agent !== undefined) add((p) => `agent = ${p}`, filter.agent)
  for (const tag of filter.tags ?? []) add((p) => `tags::jsonb ? ${p}`, tag)
  if (filter.beforeKey !== undefined) add((p) => `key < ${p}`, filter.beforeKey)
  args.push(filter.limit)
  return memoriesWhere(db, where.join(" AND "), args, `ORDER BY key DESC LIMIT $${args.length}`)
}

/** Whom each memory among `ids` is private to (null: shared); those no projection holds are left out. */
export const ownersOf = (db: SyncPg, ids: ReadonlyArray<string>): Map<string, string | null> =>
  ids.length === 0
    ? new Map()
    : new Map(db.query<{ id: string; private_to: string | null }>("SELECT id, private_to FROM memories WHERE id = ANY($1)", [ids]).map((r) => [r.id, r.private_to]))

export const memoryTexts = (db: SyncPg, ids: ReadonlyArray<string>): Map<string, string> =>
  ids.length === 0 ? new Map() : new Map(db.query<{ id: string; content: string }>("SELECT id, content FROM memories WHERE id = ANY($1)", [ids]).map((r) => [r.id, r.content]))

/** The tasks the log names, newest first, reading at most `scanLimit` events before `before`. */
export const recentTasks = (db: SyncPg, before: number | undefined, limit: number, scanLimit: number): RecentTasks =>
  scanTasks(
    (cursor, step) =>
      db.query<{ seq: number; task: string | null }>(
        "SELECT seq, task FROM events WHERE seq < $1 AND type IN ('MemoriesRecalled', 'OutcomeRecorded') ORDER BY seq DESC LIMIT $2",
        [cursor, step]
      ),
    before,
    limit,
    scanLimit
  )

export const readChainBreak = (db: SyncPg): ChainBreak | undefined => {
  const row = db.one<{ broken_at: number; reason: string; found_at: string }>("SELECT broken_at, reason, found_at FROM chain_break WHERE id = 1")
  return row === undefined ? undefined : { brokenAt: row.broken_at, reason: row.reason, foundAt: row.found_at }
}
