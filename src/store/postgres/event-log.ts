/**
 * The append-only event log on PostgreSQL. Numbered and chained by the shared `chainAfter`
 * after the head read under the store's advisory write lock, so `seq` is gap-free and the
 * hashes are those SQLite gives the same rows. A trigger refuses any UPDATE or DELETE, except
 * purge's erasing of a payload in place.
 */
import { memoryIdsOf, type StoredEvent } from "../../events/events.js"
import { chainAfter, EMPTY_LOG, encodeEvents, rowToEvent, type EventRow, type LogHead, type NewEvent, type RawEvent, type ReadFilter } from "../../events/log.js"
import type { SyncPg } from "./sync-client.js"

const INSERT_EVENT =
  "INSERT INTO events (seq, id, type, version, recorded_at, origin, agent, author, payload, payload_hash, hash, task) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
// One statement for all of an event's memories: a recall names ten or more, and on a busy
// machine each statement sent costs the server and this process more than its rows do.
const LINK_EVENT = "INSERT INTO event_memories (memory_id, seq) SELECT DISTINCT unnest($1::text[]), $2::bigint ON CONFLICT DO NOTHING"

export const lastEvent = (db: SyncPg): LogHead | undefined => db.one<LogHead>("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1")


/** Appends after `head`, which the caller vouches is the log's last event under the write lock. */
export const appendRawAfter = (db: SyncPg, head: LogHead, rows: ReadonlyArray<RawEvent>): StoredEvent[] =>
  chainAfter(head, rows, (e, row) => {
    db.run(INSERT_EVENT, [e.seq, e.id, e.type, e.version, e.recordedAt, e.origin, e.agent, e.author ?? null, row.payload, e.payloadHash, e.hash, taskOf(e)])
    const memoryIds = e.event === null ? [] : memoryIdsOf(e.event)
    if (memoryIds.length > 0) db.run(LINK_EVENT, [memoryIds, e.seq])
  })

export const appendEvents = (db: SyncPg, head: LogHead, events: ReadonlyArray<NewEvent>): StoredEvent[] => appendRawAfter(db, head, encodeEvents(events))

/** The task a recall or an outcome names: a column of its own, where SQLite indexes an expression. */
const taskOf = (e: StoredEvent): string | null => {
  const event = e.event
  if (event === null || (event._tag !== "MemoriesRecalled" && event._tag !== "OutcomeRecorded")) return null
  return event.task ?? null
}

/** Events read a page at a time, so a long read streams without one huge answer. */
const PAGE = 5_000

/** Reads events in sequence order (newest first when asked), lazily, a page at a time. */
export function* readRows(db: SyncPg, filter: ReadFilter = {}): Generator<EventRow> {
  const newest = filter.newestFirst === true
  let remaining = filter.limit === undefined ? Number.POSITIVE_INFINITY : Math.max(0, Math.floor(filter.limit))
  let after = filter.after ?? 0
  let before = filter.before
  while (remaining > 0) {
    const page = Math.min(PAGE, remaining)
    const rows = db.query<EventRow>(pageSql(filter, newest, page), pageArgs(filter, after, before))
    for (const row of rows) yield row
    remaining -= rows.length
    if (rows.length < page) return
    if (newest) before = rows.at(-1)!.seq
    else after = rows.at(-1)!.seq
  }
}

export function* readEvents(db: SyncPg, filter: ReadFilter = {}): Generator<StoredEvent> {
  for (const row of readRows(db, filter)) yield rowToEvent(row)
}

const COLUMNS = "e.seq, e.id, e.type, e.version, e.recorded_at, e.origin, e.agent, e.author, e.payload, e.payload_hash, e.hash"

const pageSql = (filter: ReadFilter, newest: boolean, page: number): string => {
  const where = ["e.seq > $1", "($2::bigint IS NULL OR e.seq < $2)"]
  let from = "events e"
  let n = 2
  if (filter.memoryId !== undefined) {
    from = "event_memories m JOIN events e ON e.seq = m.seq"
    where.push(`m.memory_id = $${++n}`)
  }
  if (filter.origin !== undefined) where.push(`e.origin = $${++n}`)
  if (filter.until !== undefined) where.push(`e.recorded_at <= $${++n}`)
  if (filter.excludeTypes !== undefined && filter.excludeTypes.length > 0) where.push(`NOT (e.type = ANY($${++n}))`)
  if (filter.types !== undefined && filter.types.length > 0) where.push(`e.type = ANY($${++n})`)
  if (filter.task !== undefined) where.push(`e.task = $${++n}`)
  if (filter.tasks !== undefined) where.push(`e.task = ANY($${++n})`)
  return `SELECT ${COLUMNS} FROM ${from} WHERE ${where.join(" AND ")} ORDER BY e.seq${newest ? " DESC" : ""} LIMIT ${page}`
}

const pageArgs = (filter: ReadFilter, after: number, before: number | undefined): unknown[] => {
  const args: unknown[] = [after, before ?? null]
  if (filter.memoryId !== undefined) args.push(filter.memoryId)
  if (filter.origin !== undefined) args.push(filter.origin)
  if (filter.until !== undefined) args.push(filter.until)
  if (filter.excludeTypes !== undefined && filter.excludeTypes.length > 0) args.push(filter.excludeTypes)
  if (filter.types !== undefined && filter.types.length > 0) args.push(filter.types)
  if (filter.task !== undefined) args.push(filter.task)
  if (filter.tasks !== undefined) args.push(filter.tasks)
  return args
}

/** A conversation's recalls and outcomes before `seq`, newest first (an outcome's cue window). */
export const conversationRecallsBefore = (db: SyncPg, origin: string, seq: number, count: number): StoredEvent[] =>
  db
    .query<EventRow>(
      `SELECT ${COLUMNS} FROM events e WHERE e.origin = $1 AND e.seq < $2 AND e.type IN ('MemoriesRecalled', 'OutcomeRecorded') ORDER BY e.seq DESC LIMIT $3`,
      [origin, seq, count]
    )
    .map(rowToEvent)

export const memoriesTouchedBy = (db: SyncPg, origin: string): string[] =>
  db
    .query<{ id: string }>("SELECT DISTINCT m.memory_id AS id FROM events e JOIN event_memories m ON m.seq = e.seq WHERE e.origin = $1", [origin])
    .map((r) => r.id)

/**
 * Whether the conversation already gave a memory from this span (a capture key). The span (a
 * hash) narrows the rows in SQL; each is then parsed here, so a damaged payload is just not a match.
 */
export const captureKeyInLog = (db: SyncPg, origin: string, span: string): boolean =>
  db
    .query<{ payload: string }>(
      `SELECT payload FROM events WHERE origin = $1 AND type IN ('MemoryAdded', 'MemoryConfirmed') AND payload IS NOT NULL
         AND strpos(payload, $2) > 0`,
      [origin, span]
    )
    .some((r) => spanOf(r.payload) === span)

const spanOf = (payload: string): unknown => {
  try {
    return (JSON.parse(payload) as { capture?: { span?: unknown } }).capture?.span
  } catch {
    return undefined
  }
}
