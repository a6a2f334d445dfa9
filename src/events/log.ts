/**
 * The log's rows, whatever keeps them: what an append takes (`NewEvent`, `RawEvent`), how rows are
 * numbered and hash-chained (`chainAfter`), a row as stored and exported (`EventRow`), and which
 * events a read asks for (`ReadFilter`). Each store writes and reads rows its own way; the
 * numbering, the chain and the checks are these, so a log exported from one store replays into
 * another with the same hashes.
 */
import { Schema } from "effect"
import { compileIs } from "./compiled-is.js"
import { chainHash, decodePayload, encodePayload, GENESIS_HASH, sha256 } from "./codec.js"
import { CURRENT_VERSION, Envelope, type DomainEvent, type StoredEvent } from "./events.js"

/** An event ready to append: the envelope fields that the caller decides, and the event. */
export interface NewEvent {
  readonly id: string
  readonly recordedAt: string
  readonly origin: string
  readonly agent: string
  /** The person whose token wrote it, when one did (events.ts Envelope). */
  readonly author?: string | undefined
  readonly event: DomainEvent
  /** Set only when replaying an exported log: keep the exported version. */
  readonly version?: number
}

/** Events as rows to append: each payload encoded and hashed. */
export const encodeEvents = (events: ReadonlyArray<NewEvent>): RawEvent[] =>
  events.map((e): RawEvent => {
    const payload = encodePayload(e.event)
    const raw: RawEvent = {
      id: e.id,
      type: e.event._tag,
      version: e.version ?? CURRENT_VERSION,
      recordedAt: e.recordedAt,
      origin: e.origin,
      agent: e.agent,
      payload,
      payloadHash: sha256(payload),
      event: e.event
    }
    return e.author === undefined ? raw : { ...raw, author: e.author }
  })

/** A row as replay brings it: payload text already encoded (or erased by a purge). */
export interface RawEvent {
  readonly id: string
  readonly type: string
  readonly version: number
  readonly recordedAt: string
  readonly origin: string
  readonly agent: string
  readonly author?: string | undefined
  readonly payload: string | null
  readonly payloadHash: string
  readonly event?: DomainEvent
}

/** The last event of the log (or of what a writer has appended so far): where the next one chains on. */
export interface LogHead {
  readonly seq: number
  readonly hash: string
}

export const EMPTY_LOG: LogHead = { seq: 0, hash: GENESIS_HASH }

const validateEnvelope = Schema.validateSync(Envelope)
/** The same check as validateEnvelope, compiled; a row it refuses goes through validateEnvelope for the error. */
const isEnvelope = compileIs(Envelope)

/**
 * Numbers and chains rows after `head`, checking each envelope, and hands each stored event to
 * `write`, in order: every store chains the same way, so a log moves between stores with its
 * hashes. The caller vouches that `head` is the log's last event under its write lock.
 */
export const chainAfter = (head: LogHead, rows: ReadonlyArray<RawEvent>, write: (stored: StoredEvent, row: RawEvent) => void): StoredEvent[] => {
  let seq = head.seq
  let previousHash = head.hash
  let checked: RawEvent | undefined
  return rows.map((r) => {
    seq += 1
    const envelope = withAuthor({ seq, id: r.id, type: r.type, version: r.version, recordedAt: r.recordedAt, origin: r.origin, agent: r.agent }, r.author)
    // Decay, `--at` and `until` read recordedAt as ISO-8601 UTC: a row that is not is refused here.
    // The strings the schema constrains (time, origin, agent) repeat from row to row in a bulk
    // append; a row whose three equal the last row checked has nothing new to check there.
    if (!sameEnvelopeStrings(r, checked)) {
      if (!isEnvelope(envelope)) validateEnvelope(envelope)
      checked = r
    } else if (typeof r.id !== "string" || typeof r.type !== "string" || typeof r.version !== "number") {
      validateEnvelope(envelope)
    }
    const hash = chainHash(previousHash, envelope, r.payloadHash)
    const event = r.event ?? (r.payload === null ? null : decodePayload(r.type, r.version, r.payload))
    previousHash = hash
    const stored: StoredEvent = withAuthor(
      {
        seq,
        id: r.id,
        type: r.type as DomainEvent["_tag"],
        version: r.version,
        recordedAt: r.recordedAt,
        origin: r.origin,
        agent: r.agent,
        event,
        payloadHash: r.payloadHash,
        hash
      },
      r.author
    )
    write(stored, r)
    return stored
  })
}

const sameEnvelopeStrings = (r: RawEvent, checked: RawEvent | undefined): boolean =>
  checked !== undefined &&
  r.recordedAt === checked.recordedAt &&
  r.origin === checked.origin &&
  r.agent === checked.agent &&
  r.author === checked.author

/**
 * `value` with `author` set when there is one, and without the key at all when there is none:
 * an event without an author has the same shape (and export line) as one from before authors.
 */
export const withAuthor = <T extends object>(value: T, author: string | null | undefined): T & { author?: string } =>
  author === undefined || author === null ? value : { ...value, author }

export interface EventRow {
  seq: number
  id: string
  type: string
  version: number
  recorded_at: string
  origin: string
  agent: string
  /** NULL for an event written without a token. */
  author: string | null
  payload: string | null
  payload_hash: string
  hash: string
}

export const rowToEvent = (row: EventRow): StoredEvent =>
  withAuthor(
    {
      seq: row.seq,
      id: row.id,
      type: row.type as DomainEvent["_tag"],
      version: row.version,
      recordedAt: row.recorded_at,
      origin: row.origin,
      agent: row.agent,
      event: row.payload === null ? null : decodePayload(row.type, row.version, row.payload),
      payloadHash: row.payload_hash,
      hash: row.hash
    },
    row.author
  )

export interface ReadFilter {
  /** Only events with a sequence number above this. */
  readonly after?: number
  /** Only events with a sequence number below this. */
  readonly before?: number
  /** The newest first (a limit then keeps the newest). */
  readonly newestFirst?: boolean
  readonly limit?: number
  readonly origin?: string
  readonly memoryId?: string
  /** Only events recorded at or before this ISO time. */
  readonly until?: string
  /** Leave out events of these types (e.g. recalls, which pile up and explain no score). */
  readonly excludeTypes?: ReadonlyArray<string>
  /** Only events of these types. */
  readonly types?: ReadonlyArray<string>
  /** Only the recalls and outcomes that name this task (through the `events_task` index). */
  readonly task?: string
  /** Only the recalls and outcomes that name one of these tasks: a page of tasks in one read. */
  readonly tasks?: ReadonlyArray<string>
}
