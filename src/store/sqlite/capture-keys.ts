/**
 * Whether a capture key (a conversation and a span hash, events/capture.ts) is already in the
 * log. The origin index narrows the search to one conversation's events, a few hundred at
 * most, before any payload is read; a purged payload (NULL) holds no key.
 */
import type { Db } from "./database.js"
import { statement } from "./statements.js"

const SQL = `
  SELECT 1 FROM events
  WHERE origin = ? AND type IN ('MemoryAdded', 'MemoryConfirmed') AND payload IS NOT NULL
    AND json_valid(payload) AND json_extract(payload, '$.capture.span') = ?
  LIMIT 1`

export const captureKeyInLog = (db: Db, origin: string, span: string): boolean => statement(db, SQL).get(origin, span) !== undefined
