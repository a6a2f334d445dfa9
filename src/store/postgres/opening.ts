/**
 * Opening a PostgreSQL store: connect, and on a database without memledger's tables make them
 * (when the command may create a store), under the write lock so that two processes opening
 * one new database make them once. Projections built at another version, or behind the log,
 * are rebuilt there too, as SQLite's are on open. Then the vector tables, where pgvector allows
 * them (vector-support.ts): a database without it opens as a keyword store.
 */
import { Either } from "effect"
import type { LedgerConfig } from "../../config.js"
import { DatabaseUnusable, StoreNotFound } from "../../domain/errors.js"
import type { StoreOpening } from "../opening.js"
import { PgLedger } from "./pg-ledger.js"
import { projectionsCurrent, rebuildProjections, vacuumRebuilt } from "./rebuild.js"
import { createSchema, logCurrent, WRITE_LOCK } from "./schema.js"
import { SyncPg } from "./sync-client.js"
import { openVectors } from "./vector-support.js"

/** The URL without its password, as messages and `stats` name the store. */
export const safeLocation = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString()
  } catch {
    return "postgres://(an unreadable URL)"
  }
}

export const openPgLedger = (url: string, config: LedgerConfig, opening: StoreOpening = {}): Either.Either<PgLedger, DatabaseUnusable | StoreNotFound> => {
  const location = safeLocation(url)
  let db: SyncPg
  try {
    db = SyncPg.connect(url)
  } catch (error) {
    return Either.left(new DatabaseUnusable({ path: location, reason: `PostgreSQL refused the connection: ${messageOf(error)}` }))
  }
  try {
    if (!hasLog(db)) {
      if (opening.create === false) {
        db.close()
        return Either.left(new StoreNotFound({ path: location }))
      }
    }
    if (!hasLog(db) || !logCurrent(db) || !projectionsCurrent(db, config)) {
      db.execute("BEGIN")
      db.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK])
      if (!hasLog(db) || !logCurrent(db)) createSchema(db)
      const rebuilt = !projectionsCurrent(db, config)
      if (rebuilt) rebuildProjections(db, config)
      db.execute("COMMIT")
      if (rebuilt) vacuumRebuilt(db)
    }
    return Either.right(new PgLedger(db, location, config, openVectors(db)))
  } catch (error) {
    db.close()
    return Either.left(new DatabaseUnusable({ path: location, reason: messageOf(error) }))
  }
}

const hasLog = (db: SyncPg): boolean => db.one<{ found: string | null }>("SELECT to_regclass('memledger_meta')::text AS found")?.found != null

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
