/**
 * `mem purge`: makes forgetting physical. Payloads of events in forgotten conversations (and,
 * when asked, the text-bearing events of forgotten memories) are erased in place; envelopes and
 * payload hashes stay, so the chain still verifies. Projections are rebuilt, then the file is
 * vacuumed and the WAL truncated, so no copy of the text survives on disk. It cannot be undone.
 *
 * The vacuum is what erases: it writes every page anew from what is live, which also clears
 * pages freed before the purge (a forgotten memory's row rewritten, its old overflow page left
 * on the free list with its text). Zeroing freed space as the purge frees it (secure_delete)
 * reached none of those and left nothing for the vacuum to miss, so it is not used.
 */
import type { LedgerConfig } from "../../config.js"
import { rebuildProjections } from "./projections/rebuild.js"
import { pruneErasedVectors } from "./projections/vector-sync.js"
import type { Db } from "./database.js"
import { clearStatements } from "./statements.js"
import type { Progress } from "../store-maintenance.js"
import type { PurgeReport } from "../store-maintenance.js"

/** `onProgress` counts in events: the rebuild is most of the work; the vacuum ends it. */
export const purgeForgotten = (db: Db, config: LedgerConfig, options: { readonly memories: boolean }, onProgress?: Progress): PurgeReport =>
  erasePayloads(
    db,
    config,
    (): PurgeReport => {
      const conversations = (db.prepare("SELECT origin FROM conversations WHERE forgotten = 1 ORDER BY origin").all() as { origin: string }[]).map(
        (r) => r.origin
      )
      let erased = 0
      // A conversation's own forget/restore events hold only another origin's name, and erasing
      // them would bring back (or hide) that other conversation: they are kept.
      const eraseOrigin = db.prepare(
        "UPDATE events SET payload = NULL WHERE origin = ? AND payload IS NOT NULL AND type NOT IN ('ConversationForgotten', 'ConversationRestored')"
      )
      for (const origin of conversations) erased += eraseOrigin.run(origin).changes
      const memories = options.memories
        ? (db.prepare("SELECT id FROM memories WHERE forgotten = 1").all() as { id: string }[]).map((r) => r.id)
        : []
      const eraseMemory = db.prepare(
        `UPDATE events SET payload = NULL WHERE payload IS NOT NULL AND type IN ('MemoryAdded', 'MemoryRevised')
           AND seq IN (SELECT seq FROM event_memories WHERE memory_id = ?)`
      )
      for (const id of memories) erased += eraseMemory.run(id).changes
      return { conversations, memories: memories.length, erasedEvents: erased }
    },
    onProgress
  )

/**
 * Runs `erase`, which sets payloads to NULL, and rebuilds the projections from what is left, in
 * one transaction; drops the stored and cached vectors of text no memory holds any more; then
 * vacuums the file and truncates the WAL, so the erased text (and its vectors) are on no page.
 */
export const erasePayloads = <R>(db: Db, config: LedgerConfig, erase: () => R, onProgress?: Progress): R => {
  const report = db
    .transaction((): R => {
      const erased = erase()
      rebuildProjections(db, config, onProgress && ((done, total) => onProgress(done * 0.9, total)))
      return erased
    })
    .immediate()
  clearStatements(db)
  pruneVectors(db)
  db.exec("VACUUM")
  db.pragma("wal_checkpoint(TRUNCATE)")
  const events = (db.prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n
  onProgress?.(events, events)
  return report
}

/** Only where an embedder ever kept vectors: a store without them gets no vector tables. */
const pruneVectors = (db: Db): void => {
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'embedding_cache'").get() as { n: number }
  if (tables.n > 0) pruneErasedVectors(db)
}

/** The forgotten conversations that still hold text, and the forgotten memories purge --memories would erase. */
export const previewPurge = (db: Db, options: { readonly memories: boolean }): { conversations: string[]; memories: number } => ({
  conversations: (
    db.prepare("SELECT origin FROM conversations WHERE forgotten = 1 AND purged_events < events ORDER BY origin").all() as { origin: string }[]
  ).map((r) => r.origin),
  memories: options.memories ? (db.prepare("SELECT count(*) AS n FROM memories WHERE forgotten = 1").get() as { n: number }).n : 0
})
