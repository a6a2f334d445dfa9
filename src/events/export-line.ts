/**
 * One line of an exported log (`mem export`): the envelope, the payload as JSON (null once
 * purged), and both hashes, so a replay can check that it rebuilt the very same chain.
 */
import { Schema } from "effect"
import type { StoredEvent } from "./events.js"
import { withAuthor, type EventRow } from "./log.js"

export const ExportedEvent = Schema.Struct({
  seq: Schema.Number,
  id: Schema.String,
  type: Schema.String,
  version: Schema.Number,
  recordedAt: Schema.String,
  origin: Schema.String,
  agent: Schema.String,
  /** Only on events written through a token (events.ts Envelope); older exports have none. */
  author: Schema.optional(Schema.String),
  payload: Schema.NullOr(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  payloadHash: Schema.String,
  hash: Schema.String
})
export type ExportedEvent = typeof ExportedEvent.Type

export const isExportedEventLine = (value: unknown): boolean =>
  typeof value === "object" && value !== null && "type" in value && "payloadHash" in value

/** The stored text is exported as parsed JSON so that the file is readable. */
export const exportRow = (row: EventRow): ExportedEvent => {
  const line = {
    seq: row.seq,
    id: row.id,
    type: row.type,
    version: row.version,
    recordedAt: row.recorded_at,
    origin: row.origin,
    agent: row.agent
  }
  return {
    // The author after the agent, as in the envelope; no key at all when there is none.
    ...withAuthor(line, row.author),
    payload: row.payload === null ? null : (JSON.parse(row.payload) as Record<string, unknown>),
    payloadHash: row.payload_hash,
    hash: row.hash
  }
}

/** The same shape from a decoded event: the envelope and the payload (null once purged). */
export const storedEventJson = (e: StoredEvent): ExportedEvent => {
  const { event, ...envelope } = e
  if (event === null) return { ...envelope, payload: null }
  const { _tag, ...payload } = event
  return { ...envelope, payload }
}

export type { StoredEvent }
