/**
 * Recomputes the hash chain over every stored row, as `mem verify` must: each payload hashes
 * to its payload_hash (unless purged), and each hash links the previous one.
 */
import type { Db } from "../../src/store/sqlite/database.js"
import { chainHash, GENESIS_HASH, sha256 } from "../../src/events/codec.js"
import { type EventRow } from "../../src/events/log.js"

/** The first problem found, or undefined when the whole chain verifies. */
export const chainProblem = (db: Db): string | undefined => {
  let previous = GENESIS_HASH
  let expectedSeq = 1
  for (const row of db.prepare("SELECT * FROM events ORDER BY seq").iterate() as IterableIterator<EventRow>) {
    if (row.seq !== expectedSeq) return `seq ${row.seq} follows ${expectedSeq - 1}: a gap`
    if (row.payload !== null && sha256(row.payload) !== row.payload_hash) return `seq ${row.seq}: payload does not match its hash`
    const envelope = {
      seq: row.seq,
      id: row.id,
      type: row.type,
      version: row.version,
      recordedAt: row.recorded_at,
      origin: row.origin,
      agent: row.agent,
      author: row.author ?? undefined
    }
    if (chainHash(previous, envelope, row.payload_hash) !== row.hash) return `seq ${row.seq}: hash does not link the previous one`
    previous = row.hash
    expectedSeq += 1
  }
  return undefined
}
