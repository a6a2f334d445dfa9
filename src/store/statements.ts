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
