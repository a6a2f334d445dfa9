/**
 * Drops every projection and replays the log into it: the log folded in one pass
 * (log-fold.ts), then one bulk write.
 */
import type { LedgerConfig } from "../../../config.js"
import { decodePayload } from "../../../events/codec.js"
import { CONVERSATION_CONTROL, eventCount, readEvents } from "../event-log.js"
import type { Db } from "../database.js"
import { clearStatements, writesOn } from "../statements.js"
import { writeCheckpoint } from "./checkpoints.js"
import { writeConversation } from "./conversations.js"
import { addCounts } from "./counts.js"
import { writeEvidence } from "./evidence.js"
import { indexMemory } from "./fts.js"
import { addContentChanges } from "./content-changes.js"
import { writeMemory } from "./memories.js"
import { finalForgottenOrigins, foldLog, privateMemories, type LogOutline } from "../../../projections/log-fold.js"
import { writeCueState } from "./cues.js"
import { PROJECTIONS, versionOf } from "./registry.js"
import type { Progress } from "../../store-maintenance.js"

/** Runs in the caller's transaction. */
export const rebuildProjections = (db: Db, config: LedgerConfig, onProgress?: Progress): { events: number } => {
  // Sequence numbers are gap-free, so the last one is the count, without a scan of the log.
  const total = eventCount(db)
  const progress = onProgress && ((seq: number) => void (seq % 50_000 === 0 && onProgress(seq * 0.8, total)))
  const { memories, evidence, conversations, cues, counts, lastSeq, events } = foldLog(readEvents(db), logOutline(db), config, progress)

  clearStatements(db)
  for (const p of PROJECTIONS) p.drop(db)
  for (const p of PROJECTIONS) p.create(db)
  for (const p of PROJECTIONS) writeCheckpoint(db, p.name, versionOf(p, config), lastSeq)
  const to = writesOn(db)
  let written = 0
  for (const m of memories.values()) {
    writeMemory(to, m)
    if (onProgress && ++written % 50_000 === 0) onProgress(total * (0.8 + (0.1 * written) / memories.size), total)
  }
  for (const e of evidence.values()) writeEvidence(db, e, config.halfLifeDays)
  for (const c of conversations.values()) writeConversation(to, c)
  addCounts(to, counts)
  for (const [memoryId, c] of cues) if (memories.has(memoryId)) writeCueState(db, c.memoryId, c)
  // The full-text index is written last, after every other write above: each of those
  // opens a statement savepoint, and FTS5 flushes its pending terms to a new segment at every
  // savepoint. Interleaved, that made one tiny segment (and its merges) per memory; written
  // together, FTS5 batches them. Same rows either way.
  written = 0
  // Counted as one change of many, unmarked (content-changes.ts): the next vector sync reads all.
  let indexed = 0
  for (const m of memories.values()) {
    indexMemory(to, undefined, m, () => void indexed++)
    if (onProgress && ++written % 50_000 === 0) onProgress(total * (0.9 + (0.1 * written) / memories.size), total)
  }
  // At least one: what was read of the index before it (vectors, word counts) no longer holds.
  addContentChanges(to, Math.max(1, indexed))
  onProgress?.(total, total)
  return { events }
}

/** What a fold of this store's log is told first (log-fold.ts `LogOutline`), from the few events that decide it. */
export const logOutline = (db: Db): LogOutline => ({ hidden: forgottenAtEnd(db), madePrivate: madePrivateIn(db) })

/** The memories some event makes private; SQL finds the few candidates, the shared rule decides. */
const madePrivateIn = (db: Db): Set<string> =>
  privateMemories(
    (
      db
        .prepare(
          `SELECT type, version, payload, author FROM events WHERE type IN ('MemoryAdded', 'MemoryRevised') AND author IS NOT NULL
             AND json_extract(payload, '$.visibility') = 'private'`
        )
        .all() as { type: string; version: number; payload: string; author: string }[]
    ).map((row) => ({ event: decodePayload(row.type, row.version, row.payload), author: row.author }))
  )

/** Which origins are forgotten once the whole log is read: only these events are hidden. */
const forgottenAtEnd = (db: Db): Set<string> =>
  finalForgottenOrigins(
    (
      db
        .prepare(`SELECT type, version, payload FROM events WHERE ${CONVERSATION_CONTROL} ORDER BY seq`)
        .all() as { type: string; version: number; payload: string | null }[]
    ).flatMap((row) =>
      row.payload === null ? [] : [{ type: row.type, origin: (decodePayload(row.type, row.version, row.payload) as { origin: string }).origin }]
    )
  )
