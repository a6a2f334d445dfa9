/**
 * The store as it was at a moment, on PostgreSQL: inside one transaction that is rolled back,
 * temporary tables of the same names shadow the real ones (PostgreSQL looks in a session's
 * temporary schema first), hold the events recorded up to then, and get every projection
 * rebuilt from them. The reads then run unchanged, and nothing of it outlives the transaction.
 */
import type { LedgerConfig } from "../../config.js"
import { rebuildProjections } from "./rebuild.js"
import type { SyncPg } from "./sync-client.js"

const LOG_TABLES = ["events", "event_memories", "chain_break", "projection_checkpoints", "content_changes", "change_marks", "memledger_meta"]

/**
 * `vectors`: whether the database keeps vectors. The past has none, as SQLite's past store in
 * memory has none: an empty table shadows them, so no vector read pairs today's vectors with
 * the memories as they were.
 */
export const readAsOf = <A>(db: SyncPg, config: LedgerConfig, vectors: boolean, untilIso: string, f: () => A): A =>
  db.unprepared(() => inShadows(db, config, vectors, untilIso, f))

const inShadows = <A>(db: SyncPg, config: LedgerConfig, vectors: boolean, untilIso: string, f: () => A): A => {
  db.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
  try {
    for (const table of [...LOG_TABLES, ...(vectors ? ["memory_vectors", "cue_vectors"] : [])]) {
      db.run(`CREATE TEMP TABLE ${table} (LIKE public.${table} INCLUDING ALL) ON COMMIT DROP`)
    }
    db.run("INSERT INTO pg_temp.events SELECT * FROM public.events WHERE recorded_at <= $1", [untilIso])
    db.run("INSERT INTO pg_temp.event_memories SELECT m.* FROM public.event_memories m JOIN pg_temp.events e ON e.seq = m.seq")
    db.run("INSERT INTO pg_temp.content_changes VALUES (1, 0)")
    rebuildProjections(db, config, undefined, true)
    return f()
  } finally {
    db.discard()
    db.execute("ROLLBACK")
  }
}
