/**
 * `mem purge` on PostgreSQL: the same erasing as SQLite's (payloads of forgotten conversations,
 * and with `memories` the text-bearing events of forgotten memories, erased in place; envelopes
 * and payload hashes stay, so the chain still verifies), then the projections rebuilt, the
 * vectors of erased text deleted, stored and cached, and the tables vacuumed. What VACUUM
 * cannot reach (WAL segments not yet recycled, WAL archives, replicas, base backups) is listed
 * in docs/privacy.md.
 */
import type { LedgerConfig } from "../../config.js"
import type { Progress, PurgeReport } from "../store-maintenance.js"
import type { PgLedger } from "./pg-ledger.js"
import type { SyncPg } from "./sync-client.js"
import { rebuildProjections } from "./rebuild.js"
import { PROJECTION_TABLES } from "./schema.js"
import { VECTOR_TABLES } from "./vector-schema.js"
import { pgVectorTables } from "./vector-tables.js"
import { pruneErasedVectors } from "../vector-sync.js"

export const purgeForgotten = (ledger: PgLedger, config: LedgerConfig, options: { readonly memories: boolean }, onProgress?: Progress): PurgeReport => {
  let erasedBy = ""
  const report = ledger.writeOrThrow(({ db }): PurgeReport => {
    const conversations = db.query<{ origin: string }>("SELECT origin FROM conversations WHERE forgotten = 1 ORDER BY origin").map((r) => r.origin)
    // A conversation's own forget/restore events hold only another origin's name: they are kept.
    let erased = db.execute(
      "UPDATE events SET payload = NULL WHERE origin = ANY($1) AND payload IS NOT NULL AND type NOT IN ('ConversationForgotten', 'ConversationRestored')",
      [conversations]
    )
    const memories = options.memories ? db.query<{ id: string }>("SELECT id FROM memories WHERE forgotten = 1").map((r) => r.id) : []
    erased += db.execute(
      `UPDATE events SET payload = NULL WHERE payload IS NOT NULL AND type IN ('MemoryAdded', 'MemoryRevised')
         AND seq IN (SELECT seq FROM event_memories WHERE memory_id = ANY($1))`,
      [memories]
    )
    rebuildProjections(db, config, onProgress && ((done, total) => onProgress(done * 0.9, total)))
    // Nor does an erased text's vector outlive it, stored or cached (store/vector-sync.ts).
    if (ledger.vectors.kept) pruneErasedVectors(pgVectorTables(db))
    erasedBy = db.one<{ xid: string }>("SELECT pg_current_xact_id()::text AS xid")!.xid
    return { conversations, memories: memories.length, erasedEvents: erased }
  })
  // VACUUM keeps every row version another session may still see: wait for those sessions first.
  const erasedAt = ledger.db.one<{ at: string }>("SELECT clock_timestamp()::text AS at")!.at
  const heldBy = waitForOlderSnapshots(ledger.db, erasedAt, erasedBy)
  // Outside a transaction, as VACUUM must be: it rewrites the tables without the erased text.
  ledger.db.execute("VACUUM events")
  // The rebuild deleted the projections' rows, the forgotten text among them, and a plain VACUUM
  // leaves a deleted row's bytes in its page: FULL writes each table anew (as dropping them did),
  // holding off readers the moment it takes, where the rebuild held off none.
  ledger.db.execute(`VACUUM FULL ${[...PROJECTION_TABLES, ...(ledger.vectors.kept ? VECTOR_TABLES : [])].join(", ")}`)
  const events = ledger.read((db) => db.one<{ n: number }>("SELECT count(*) AS n FROM events")!.n)
  onProgress?.(events, events)
  return heldBy.length === 0 ? report : { ...report, heldBy }
}

/** How long a purge waits for the sessions that still see what it erased, before it vacuums anyway. */
const SNAPSHOT_WAIT_MS = 10_000
const POLL_MS = 100

/**
 * The database's other sessions in a transaction begun before `since` that hold a snapshot or
 * a transaction id: each may still see the erased text. Sessions of other roles show these
 * columns only to a role with pg_read_all_stats, so they are not waited for (docs/privacy.md).
 */
const olderSnapshots = (db: SyncPg, since: string): string[] =>
  db
    .query<{ who: string }>(
      `SELECT format('pid %s%s', pid, CASE WHEN application_name <> '' THEN format(' (%s)', application_name) ELSE '' END) AS who
         FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid()
          AND (backend_xmin IS NOT NULL OR backend_xid IS NOT NULL) AND xact_start < $1::timestamptz
        ORDER BY pid`,
      [since]
    )
    .map((r) => r.who)

/**
 * Transactions of any database of the server that began before the erasing (`erasedBy`, its
 * transaction id) and still run. A snapshot taken in this database while one runs, VACUUM's own
 * included, counts it as running, so the row versions the erasing replaced stay "recently dead"
 * and VACUUM keeps them: a long transaction in another database holds the text here too.
 * Named where this role may see them (pg_read_all_stats shows other roles'); otherwise said to be there.
 */
const olderTransactions = (db: SyncPg, since: string, erasedBy: string): string[] => {
  const { running } = db.one<{ running: boolean }>("SELECT pg_snapshot_xmin(pg_current_snapshot()) < $1::xid8 AS running", [erasedBy])!
  if (!running) return []
  const named = db
    .query<{ who: string }>(
      `SELECT format('pid %s in database %s%s', pid, coalesce(datname, '-'), CASE WHEN application_name <> '' THEN format(' (%s)', application_name) ELSE '' END) AS who
         FROM pg_stat_activity
        WHERE datname IS DISTINCT FROM current_database() AND backend_xid IS NOT NULL AND xact_start < $1::timestamptz
        ORDER BY pid`,
      [since]
    )
    .map((r) => r.who)
  return named.length > 0 ? named : ["a transaction begun before the purge that this role cannot see"]
}

/** Waits until nothing sees what was erased before `since`, or the wait is over: those that still do. */
const waitForOlderSnapshots = (db: SyncPg, since: string, erasedBy: string): string[] => {
  for (let waited = 0; ; waited += POLL_MS) {
    const sessions = olderSnapshots(db, since)
    const holders = sessions.length > 0 ? sessions : olderTransactions(db, since, erasedBy)
    if (holders.length === 0 || waited >= SNAPSHOT_WAIT_MS) return holders
    db.execute(`SELECT pg_sleep(${POLL_MS / 1000})`)
  }
}

export const previewPurge = (ledger: PgLedger, options: { readonly memories: boolean }): { conversations: string[]; memories: number } =>
  ledger.read((db) => ({
    conversations: db.query<{ origin: string }>("SELECT origin FROM conversations WHERE forgotten = 1 AND purged_events < events ORDER BY origin").map((r) => r.origin),
    memories: options.memories ? db.one<{ n: number }>("SELECT count(*) AS n FROM memories WHERE forgotten = 1")!.n : 0
  }))
