/**
 * The projections' tables on PostgreSQL, for the projector every store shares
 * (src/projections/projector.ts): the same rows as SQLite's, through the same mappers
 * (projection-rows.ts). Writes nothing reads back at once are queued on the connection
 * (`run`) and sent together before the next read.
 */
import type { MemoryId } from "../../domain/ids.js"
import type { ConversationState } from "../../projections/conversation-state.js"
import type { CueState, LearnedCue, LearnedCueRow } from "../../projections/cue-state.js"
import { memoryGroupKey, type CountChanges } from "../../projections/count-state.js"
import { oneFailureAtMs, type EvidenceState } from "../../projections/evidence-state.js"
import { isLive, type MemoryState } from "../../projections/memory-state.js"
import type { ProjectionTables } from "../../projections/projector.js"
import type { LedgerConfig } from "../../config.js"
import { codeColumn } from "../../retrieval/code-words.js"
import { indexedColumns, sameIndexedText } from "../../retrieval/indexed-text.js"
import { placeToken } from "../../retrieval/place-tokens.js"
import { indexTokens } from "../../retrieval/stems.js"
import { conversationParams,
  MEMORY_COLUMNS,
  memoryParams,
  rowToConversation,
  rowToEvidence,
  rowToMemory,
  type ConversationRow,
  type EvidenceRow,
  type MemoryRow
} from "../projection-rows.js"
import { conversationRecallsBefore, memoriesTouchedBy, readEvents } from "./event-log.js"
import { indexDocument, memoryDocument, unindexDocument } from "./keyword-index.js"
import type { SyncPg } from "./sync-client.js"

/** `config`: the settings the projections are folded with. */
export const pgProjectionTables = (db: SyncPg, config: LedgerConfig): ProjectionTables => ({
  memory: (id) => loadMemory(db, id),
  writeMemory: (m) => db.run(UPSERT_MEMORY, memoryParams(m)),
  deleteMemory: (id) => db.run("DELETE FROM memories WHERE id = $1", [id]),
  evidence: (memoryId) => loadEvidence(db, memoryId),
  writeEvidence: (e) => writeEvidence(db, e, config.halfLifeDays),
  deleteEvidence: (memoryId) => db.run("DELETE FROM evidence WHERE memory_id = $1", [memoryId]),
  cueState: (memoryId) => {
    const row = db.one<{ state: string }>("SELECT state FROM cue_states WHERE memory_id = $1", [memoryId])
    return row && (JSON.parse(row.state) as CueState)
  },
  writeCueState: (memoryId, state) => writeCueState(db, memoryId, state),
  conversation: (origin) => loadConversation(db, origin),
  writeConversation: (c) => writeConversation(db, c),
  forgottenOrigins: () => forgottenOrigins(db),
  memoriesTouchedBy: (origin) => memoriesTouchedBy(db, origin),
  eventsOfMemory: (memoryId) => readEvents(db, { memoryId }),
  recallsBefore: (origin, seq, count) => conversationRecallsBefore(db, origin, seq, count),
  indexMemory: (before, after) => indexMemory(db, before, after),
  madePrivateBefore: (memoryId, seq) =>
    db.one(
      `SELECT 1 FROM event_memories m JOIN events e ON e.seq = m.seq
        WHERE m.memory_id = $1 AND m.seq < $2 AND e.type IN ('MemoryAdded', 'MemoryRevised') AND e.author IS NOT NULL
          AND e.payload IS NOT NULL AND e.payload::jsonb ->> 'visibility' = 'private' LIMIT 1`,
      [memoryId, seq]
    ) !== undefined,
  addCounts: (changes) => addCounts(db, changes),
  setCheckpoints: (lastSeq) => db.run("UPDATE projection_checkpoints SET last_seq = $1", [lastSeq])
})

export const loadMemory = (db: SyncPg, id: string): MemoryState | undefined => {
  const row = db.one<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = $1`, [id])
  return row && rowToMemory(row)
}

const COLUMN_LIST = MEMORY_COLUMNS.split(",").map((c) => c.trim())

export const UPSERT_MEMORY = `INSERT INTO memories (${MEMORY_COLUMNS}) VALUES (${COLUMN_LIST.map((_, i) => `$${i + 1}`).join(", ")})
  ON CONFLICT (key) DO UPDATE SET ${COLUMN_LIST.filter((c) => c !== "key")
    .map((c) => `${c} = excluded.${c}`)
    .join(", ")}`

export const loadEvidence = (db: SyncPg, memoryId: string): EvidenceState | undefined => {
  const row = db.one<EvidenceRow>("SELECT * FROM evidence WHERE memory_id = $1", [memoryId])
  return row && rowToEvidence(row)
}

export const loadEvidenceOf = (db: SyncPg, memoryIds: ReadonlyArray<string>): Map<string, EvidenceState> => {
  if (memoryIds.length === 0) return new Map()
  const rows = db.query<EvidenceRow>("SELECT * FROM evidence WHERE memory_id = ANY($1)", [memoryIds])
  return new Map(rows.map((row) => [row.memory_id, rowToEvidence(row)]))
}

/** `halfLifeDays`: the half-life the evidence was folded with, which `one_failure_at_ms` decays by. */
export const writeEvidence = (db: SyncPg, e: EvidenceState, halfLifeDays: number): void =>
  db.run(
    `INSERT INTO evidence (memory_id, worked, failed, anchor_ms, worked_count, failed_count, partial_count, event_ids, one_failure_at_ms)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (memory_id) DO UPDATE SET worked = excluded.worked, failed = excluded.failed, anchor_ms = excluded.anchor_ms,
       worked_count = excluded.worked_count, failed_count = excluded.failed_count, partial_count = excluded.partial_count,
       event_ids = excluded.event_ids, one_failure_at_ms = excluded.one_failure_at_ms`,
    [e.memoryId, e.worked, e.failed, e.anchorMs, e.workedCount, e.failedCount, e.partialCount, JSON.stringify(e.eventIds), oneFailureAtMs(e, halfLifeDays)]
  )

/**
 * Adds a write's changes to the counts (or, into empty tables, a rebuild's), in one statement
 * each for the groups and the days; a group that empties is deleted, as a rebuild never writes it.
 */
export const addCounts = (db: SyncPg, changes: CountChanges): void => {
  if (changes.memories.length > 0) {
    const groups = changes.memories.map((g) => ({ ...g, grp: memoryGroupKey(g) }))
    db.run(
      `INSERT INTO memory_counts (grp, category, project, status, forgotten, superseded, private_to, n)
       SELECT g.grp, g.category, g.project, g.status, g.forgotten::int::smallint, g.superseded::int::smallint, g."privateTo", g.n
         FROM json_to_recordset($1::json) AS g(grp text, category text, project text, status text, forgotten boolean, superseded boolean, "privateTo" text, n integer)
       ON CONFLICT (grp) DO UPDATE SET n = memory_counts.n + excluded.n`,
      [JSON.stringify(groups)]
    )
    if (changes.memories.some((g) => g.n < 0)) db.run("DELETE FROM memory_counts WHERE n = 0")
  }
  if (changes.outcomeDays.length > 0) {
    db.run(
      `INSERT INTO outcome_days (day, origin, worked, failed, partial)
       SELECT d.day, d.origin, d.worked, d.failed, d.partial
         FROM json_to_recordset($1::json) AS d(day text, origin text, worked integer, failed integer, partial integer)
       ON CONFLICT (day, origin) DO UPDATE SET worked = outcome_days.worked + excluded.worked,
         failed = outcome_days.failed + excluded.failed, partial = outcome_days.partial + excluded.partial`,
      [JSON.stringify(changes.outcomeDays)]
    )
    if (changes.outcomeDays.some((d) => d.worked < 0 || d.failed < 0 || d.partial < 0)) {
      db.run("DELETE FROM outcome_days WHERE worked = 0 AND failed = 0 AND partial = 0")
    }
  }
  if (changes.privateOutcomes.length > 0) {
    db.run(
      `INSERT INTO private_outcomes (seq, day, origin, outcome, memory_ids)
       SELECT o.seq, o.day, o.origin, o.outcome, o."memoryIds"::text
         FROM json_to_recordset($1::json) AS o(seq bigint, day text, origin text, outcome text, "memoryIds" json)`,
      [JSON.stringify(changes.privateOutcomes)]
    )
  }
}

export const loadConversation = (db: SyncPg, origin: string): ConversationState | undefined => {
  const row = db.one<ConversationRow>("SELECT * FROM conversations WHERE origin = $1", [origin])
  return row && rowToConversation(row)
}

export const listConversations = (db: SyncPg): ConversationState[] =>
  db.query<ConversationRow>("SELECT * FROM conversations ORDER BY last_at DESC, origin").map(rowToConversation)

export const forgottenOrigins = (db: SyncPg): Set<string> =>
  new Set(db.query<{ origin: string }>("SELECT origin FROM conversations WHERE forgotten = 1").map((r) => r.origin))

export const writeConversation = (db: SyncPg, c: ConversationState): void =>
  db.run(
    `INSERT INTO conversations (${CONVERSATION_COLUMNS.join(", ")})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (origin) DO UPDATE SET events = excluded.events, memories_added = excluded.memories_added,
       outcomes = excluded.outcomes, first_at = excluded.first_at, last_at = excluded.last_at,
       forgotten = excluded.forgotten, purged_events = excluded.purged_events,
       authors = excluded.authors, private_authors = excluded.private_authors`,
    conversationParams(c)
  )

export const memoryDocumentOf = (m: MemoryState) => memoryDocument(m.key, indexedColumns(m), m.project, isLive(m), m.category, m.privateTo)

/** Inserts rows given as objects named by column, many to a statement (a rebuild's bulk write). */
export const insertRows = (db: SyncPg, table: "memories" | "evidence" | "conversations", rows: ReadonlyArray<Record<string, unknown>>): void => {
  for (let at = 0; at < rows.length; at += 2_000) {
    db.run(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [JSON.stringify(rows.slice(at, at + 2_000))])
  }
}

/** A memory as a row object, its columns named as in MEMORY_COLUMNS. */
export const memoryRow = (m: MemoryState): Record<string, unknown> => {
  const values = memoryParams(m)
  return Object.fromEntries(COLUMN_LIST.map((c, i) => [c, values[i]]))
}

export const evidenceRow = (e: EvidenceState, halfLifeDays: number): Record<string, unknown> => ({
  memory_id: e.memoryId,
  worked: e.worked,
  failed: e.failed,
  anchor_ms: e.anchorMs,
  worked_count: e.workedCount,
  failed_count: e.failedCount,
  partial_count: e.partialCount,
  event_ids: JSON.stringify(e.eventIds),
  one_failure_at_ms: oneFailureAtMs(e, halfLifeDays)
})

const CONVERSATION_COLUMNS = ["origin", "events", "memories_added", "outcomes", "first_at", "last_at", "forgotten", "purged_events", "authors", "private_authors"]

/** A conversation as a row object: the same values, in the same columns, as `writeConversation` writes. */
export const conversationRow = (c: ConversationState): Record<string, unknown> => {
  const values = conversationParams(c)
  return Object.fromEntries(CONVERSATION_COLUMNS.map((column, i) => [column, values[i]]))
}

/** FTS5 counts a row's scope tokens in its length: two for a memory, one for a cue. */
const lengthOf = (columns: ReadonlyArray<string>, extra: number): number => extra + columns.reduce((n, text) => n + indexTokens(text).length, 0)

/** Keeps the keyword index in step with one memory's change; unchanged text and place cost nothing. */
export const indexMemory = (db: SyncPg, before: MemoryState | undefined, after: MemoryState | undefined): void => {
  const memory = after ?? before
  if (memory === undefined) return
  const textChanged = !(before && after && before.key === after.key && sameIndexedText(before, after))
  const placeOf = (m: MemoryState) => `${placeToken({ project: m.project, live: isLive(m), owner: m.privateTo })}/${m.category}`
  if (!textChanged && placeOf(before!) === placeOf(after!)) return
  if (textChanged || before!.project !== after!.project) markChange(db, memory.id)
  if (before) unindexDocument(db, "memories", before.key, lengthOf(indexedColumns(before), 2))
  if (after) indexDocument(db, "memories", memoryDocumentOf(after))
}

/** How many of the latest changes stay marked, as on SQLite (content-changes.ts there). */
const KEPT_MARKS = 10_000

/**
 * A change to one memory (its text, project or learned cues): bumps the content counter and
 * marks the memory with its value. Statements the write pipelines, with no answer waited for.
 */
const markChange = (db: SyncPg, memoryId: string): void => {
  db.run("UPDATE content_changes SET n = n + 1 WHERE id = 1")
  db.run("INSERT INTO change_marks (change, memory_id) SELECT n, $1 FROM content_changes WHERE id = 1", [memoryId])
  db.run(`DELETE FROM change_marks WHERE change <= (SELECT n FROM content_changes WHERE id = 1) - ${KEPT_MARKS}`)
}

/** Replaces a memory's cue state and its searchable cues (none when `state` is undefined). */
export const writeCueState = (db: SyncPg, memoryId: MemoryId, state: CueState | undefined): void => {
  const old = db.query<{ key: number; text: string }>("DELETE FROM learned_cues WHERE memory_id = $1 RETURNING key, text", [memoryId])
  for (const cue of old) unindexDocument(db, "cues", cue.key, lengthOf(cueColumns(cue.text), 1))
  // The cues' rows and keys change: their vectors are refiled at the next sync (cue-vector-sync.ts).
  if (old.length > 0 || (state?.cues.length ?? 0) > 0) markChange(db, memoryId)
  if (state === undefined || (state.cues.length === 0 && state.dropped.length === 0)) {
    db.run("DELETE FROM cue_states WHERE memory_id = $1", [memoryId])
    return
  }
  db.run("INSERT INTO cue_states (memory_id, state) VALUES ($1, $2) ON CONFLICT (memory_id) DO UPDATE SET state = excluded.state", [
    memoryId,
    JSON.stringify(state)
  ])
  for (const cue of state.cues) insertCue(db, memoryId, cue)
}

const cueColumns = (text: string): string[] => [text, codeColumn(text)]

const insertCue = (db: SyncPg, memoryId: MemoryId, cue: LearnedCue): void => {
  const { key } = db.one<{ key: number }>(
    `INSERT INTO learned_cues (memory_id, text, project, weight, anchor_ms, origin, outcome_event_id, recall_event_id, learned_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING key`,
    [memoryId, cue.text, cue.project, cue.weight, cue.anchorMs, cue.origin, cue.outcomeEventId, cue.recallEventId, cue.learnedAt]
  )!
  indexDocument(db, "cues", { key, columns: cueColumns(cue.text), place: placeToken({ project: cue.project, live: true }), category: "", extraTokens: 1 })
}

/** A learned cue's columns as `LearnedCueRow` names them, of the table named `t` (or unnamed). */
const CUE_COLUMNS_OF = (t = "") =>
  `${t}key, ${t}memory_id AS "memoryId", ${t}text, ${t}project, ${t}weight, ${t}anchor_ms AS "anchorMs", ${t}origin, ` +
  `${t}outcome_event_id AS "outcomeEventId", ${t}recall_event_id AS "recallEventId", ${t}learned_at AS "learnedAt"`
export const CUE_COLUMNS = CUE_COLUMNS_OF()

/** The learned cues of `keys` (cues' keys) that are still there, with their memories' keys, in key order. */
export const learnedCuesByKey = (db: SyncPg, keys: ReadonlyArray<number>): Array<{ cue: LearnedCueRow; memoryKey: number }> => {
  if (keys.length === 0) return []
  return db
    .query<LearnedCueRow & { memoryKey: number }>(
      `SELECT ${CUE_COLUMNS_OF("c.")}, m.key AS "memoryKey" FROM learned_cues c JOIN memories m ON m.id = c.memory_id WHERE c.key = ANY($1) ORDER BY c.key`,
      [keys]
    )
    .map(({ memoryKey, ...cue }) => ({ cue, memoryKey }))
}

/** The learned cues of some memories, strongest (as anchored) first. */
export const learnedCuesOf = (db: SyncPg, memoryIds: ReadonlyArray<string>): Map<string, LearnedCueRow[]> => {
  const out = new Map<string, LearnedCueRow[]>()
  if (memoryIds.length === 0) return out
  for (const row of db.query<LearnedCueRow>(`SELECT ${CUE_COLUMNS} FROM learned_cues WHERE memory_id = ANY($1) ORDER BY key`, [memoryIds])) {
    out.set(row.memoryId, [...(out.get(row.memoryId) ?? []), row])
  }
  return out
}
