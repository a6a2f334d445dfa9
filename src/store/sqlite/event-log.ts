/**
 * The append-only event log on SQLite. `seq` is the rowid: assigned in the writing transaction
 * as max + 1, so it is gap-free (rows are never deleted, and a rolled-back append leaves no
 * hole). Triggers refuse any UPDATE or DELETE, except purge's erasing of a payload in place.
 */
import type { Db } from "./database.js"
import { statement, writesOn, type Writes } from "./statements.js"
import { memoryIdsOf, type StoredEvent } from "../../events/events.js"
import { chainAfter, EMPTY_LOG, encodeEvents, rowToEvent, type EventRow, type LogHead, type NewEvent, type RawEvent, type ReadFilter } from "../../events/log.js"

/**
 * The task a recall or an outcome names, as SQL: the key of the partial index `events_task`,
 * which holds only those two types, so finding a task's events reads a handful of index
 * entries rather than decoding every recall in the log. json_valid keeps a damaged payload
 * from failing the index (it then names no task); a purged payload (NULL) names none either.
 */
const TASK_OF_PAYLOAD = "json_extract(CASE WHEN json_valid(payload) THEN payload END, '$.task')"
const CARRIES_TASK = "type IN ('MemoriesRecalled', 'OutcomeRecorded')"

/**
 * Conversations forgotten and restored: the partial index `events_conversation_controls` holds
 * only those, so a fold finds which conversations end forgotten (rebuild.ts) in a handful of
 * rows instead of reading every event.
 */
export const CONVERSATION_CONTROL = "type IN ('ConversationForgotten', 'ConversationRestored')"

export const createLog = (db: Db): void => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS events (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      type TEXT NOT NULL,
      version INTEGER NOT NULL,
      recorded_at TEXT NOT NULL,
      origin TEXT NOT NULL,
      agent TEXT NOT NULL,
      payload TEXT,
      payload_hash TEXT NOT NULL,
      hash TEXT NOT NULL,
      author TEXT
    ) STRICT;
    CREATE INDEX IF NOT EXISTS events_origin ON events(origin);
    CREATE INDEX IF NOT EXISTS events_task ON events(${TASK_OF_PAYLOAD}) WHERE ${CARRIES_TASK};
    CREATE INDEX IF NOT EXISTS events_recorded_at ON events(recorded_at);
    CREATE INDEX IF NOT EXISTS events_conversation_controls ON events(seq) WHERE ${CONVERSATION_CONTROL};
    CREATE TABLE IF NOT EXISTS event_memories (
      memory_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      PRIMARY KEY (memory_id, seq)
    ) STRICT, WITHOUT ROWID;
    CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
      BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
  `)
  addAuthorColumn(db)
}

/**
 * `author` came after the log's first shape: a log made before it gains the column (NULL in
 * every old row, which is what an event without a token has anyway), and the update trigger is
 * made again so that it guards the author as it guards the rest of the envelope.
 */
const addAuthorColumn = (db: Db): void => {
  const columns = db.prepare("SELECT name FROM pragma_table_info('events')").all() as Array<{ name: string }>
  if (!columns.some((c) => c.name === "author")) db.exec("ALTER TABLE events ADD COLUMN author TEXT")
  db.exec(`
    DROP TRIGGER IF EXISTS events_append_only_update;
    CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
      WHEN NEW.payload IS NOT NULL OR NEW.seq IS NOT OLD.seq OR NEW.id IS NOT OLD.id OR NEW.type IS NOT OLD.type
        OR NEW.version IS NOT OLD.version OR NEW.recorded_at IS NOT OLD.recorded_at OR NEW.origin IS NOT OLD.origin
        OR NEW.agent IS NOT OLD.agent OR NEW.author IS NOT OLD.author OR NEW.payload_hash IS NOT OLD.payload_hash
        OR NEW.hash IS NOT OLD.hash
      BEGIN SELECT RAISE(ABORT, 'the event log is append-only; only purge may erase a payload'); END;
  `)
}

const INSERT_EVENT =
  "INSERT INTO events (seq, id, type, version, recorded_at, origin, agent, author, payload, payload_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
const LINK_EVENT = "INSERT OR IGNORE INTO event_memories (memory_id, seq) VALUES (?, ?)"

/** Numbers, chains and inserts rows after the log's last event; decodes a payload only when the caller has not. */
export const appendRaw = (db: Db, rows: ReadonlyArray<RawEvent>): StoredEvent[] => appendRawAfter(writesOn(db), lastEvent(db) ?? EMPTY_LOG, rows)


/** Writes chained rows to `to`: the log's row and the links from each memory it names. */
export const appendRawAfter = (to: Writes, head: LogHead, rows: ReadonlyArray<RawEvent>): StoredEvent[] =>
  chainAfter(head, rows, (e, row) => {
    to.run(INSERT_EVENT, [e.seq, e.id, e.type, e.version, e.recordedAt, e.origin, e.agent, e.author ?? null, row.payload, e.payloadHash, e.hash])
    if (e.event !== null) for (const memoryId of memoryIdsOf(e.event)) to.run(LINK_EVENT, [memoryId, e.seq])
  })

/** Appends in the caller's transaction (the store wraps it in BEGIN IMMEDIATE). */
export const appendEvents = (db: Db, events: ReadonlyArray<NewEvent>): StoredEvent[] => appendRaw(db, encodeEvents(events))

/** The log's last event, as `lastEvent` reads it (a bulk import's writer thread runs it too). */
export const LAST_EVENT_SQL = "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"

export const lastEvent = (db: Db): LogHead | undefined => statement(db, LAST_EVENT_SQL).get() as LogHead | undefined

export const eventCount = (db: Db): number => lastEvent(db)?.seq ?? 0

/** Reads events in sequence order; lazily, so a million-event rebuild streams. */
export function* readEvents(db: Db, filter: ReadFilter = {}): Generator<StoredEvent> {
  for (const row of readRows(db, filter)) yield rowToEvent(row)
}

export function* readRows(db: Db, filter: ReadFilter = {}): Generator<EventRow> {
  const where: string[] = ["e.seq > ?"]
  const args: unknown[] = [filter.after ?? 0]
  let from = "events e"
  if (filter.before !== undefined) {
    where.push("e.seq < ?")
    args.push(filter.before)
  }
  if (filter.memoryId !== undefined) {
    from = "event_memories m JOIN events e ON e.seq = m.seq"
    where.push("m.memory_id = ?")
    args.push(filter.memoryId)
  }
  if (filter.origin !== undefined) {
    where.push("e.origin = ?")
    args.push(filter.origin)
  }
  if (filter.until !== undefined) {
    where.push("e.recorded_at <= ?")
    args.push(filter.until)
  }
  if (filter.excludeTypes !== undefined && filter.excludeTypes.length > 0) {
    where.push(`e.type NOT IN (${filter.excludeTypes.map(() => "?").join(", ")})`)
    args.push(...filter.excludeTypes)
  }
  if (filter.types !== undefined && filter.types.length > 0) {
    where.push(`e.type IN (${filter.types.map(() => "?").join(", ")})`)
    args.push(...filter.types)
  }
  if (filter.task !== undefined) {
    // Spelled exactly as in the index's definition, or SQLite would not use it.
    where.push(CARRIES_TASK, `${TASK_OF_PAYLOAD} = ?`)
    args.push(filter.task)
  }
  if (filter.tasks !== undefined) {
    where.push(CARRIES_TASK, `${TASK_OF_PAYLOAD} IN (SELECT value FROM json_each(?))`)
    args.push(JSON.stringify(filter.tasks))
  }
  const limit = filter.limit === undefined ? "" : ` LIMIT ${Math.max(0, Math.floor(filter.limit))}`
  const sql = `SELECT e.* FROM ${from} WHERE ${where.join(" AND ")} ORDER BY e.seq${filter.newestFirst === true ? " DESC" : ""}${limit}`
  yield* db.prepare(sql).iterate(...args) as IterableIterator<EventRow>
}

/**
 * A conversation's recalls and outcomes before `seq`, newest first: what an outcome's cue
 * window is looked for in (cue-state.ts). Through the origin index, whose entries hold `seq`.
 */
export const conversationRecallsBefore = (db: Db, origin: string, seq: number, count: number): StoredEvent[] =>
  (
    statement(
      db,
      "SELECT * FROM events WHERE origin = ? AND seq < ? AND type IN ('MemoriesRecalled', 'OutcomeRecorded') ORDER BY seq DESC LIMIT ?"
    ).all(origin, seq, count) as EventRow[]
  ).map(rowToEvent)
