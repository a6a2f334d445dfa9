/**
 * Prepared statements cached per connection: preparing is the slow part of a small query, and
 * the hot paths (append, projection writes) run the same few statements many times.
 */
import type Database from "better-sqlite3"
import type { Db } from "./database.js"

const cache = new WeakMap<Db, Map<string, Database.Statement>>()

export const statement = (db: Db, sql: string): Database.Statement => {
  let perDb = cache.get(db)
  if (!perDb) {
    perDb = new Map()
    cache.set(db, perDb)
  }
  let stmt = perDb.get(sql)
  if (!stmt) {
    stmt = db.prepare(sql)
    perDb.set(sql, stmt)
  }
  return stmt
}

/** Forgets a connection's statements (after DDL that invalidates them, such as a rebuild). */
export const clearStatements = (db: Db): void => {
  cache.delete(db)
}

/**
 * Where a projection's or the log's write statements run: on a connection (`writesOn`), or on
 * a bulk import's writer thread (writer-thread.ts), which runs them on its own connection to
 * the same file while this thread goes on deciding the next lines.
 */
export interface Writes {
  /** Runs `sql` with `params` (which the callee may keep: pass a new array). */
  readonly run: (sql: string, params: ReadonlyArray<unknown>) => void
}

const connectionWrites = new WeakMap<Db, Writes>()

/** A connection's own statements, as `Writes` (one object per connection). */
export const writesOn = (db: Db): Writes => {
  let writes = connectionWrites.get(db)
  if (!writes) {
    writes = { run: (sql, params) => void statement(db, sql).run(...params) }
    connectionWrites.set(db, writes)
  }
  return writes
}
