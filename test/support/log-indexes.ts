/**
 * For tests that protect a read of the log by an index: the plan SQLite chose for the statement a
 * read prepared, and a store made before an index, opened again.
 */
import Database from "better-sqlite3"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { openStoreAt } from "./temp-store.js"

/** The query plan of the first statement `read` prepares whose text holds `marker`, with `params`. */
export const planOf = (store: LedgerStore, read: () => unknown, marker: string, ...params: unknown[]): string => {
  const prepared: string[] = []
  const prepare = store.db.prepare.bind(store.db)
  store.db.prepare = ((sql: string) => {
    prepared.push(sql)
    return prepare(sql)
  }) as typeof store.db.prepare
  try {
    read()
  } finally {
    store.db.prepare = prepare as typeof store.db.prepare
  }
  const query = prepared.find((sql) => sql.includes(marker))
  if (query === undefined) throw new Error(`no statement holding ${marker} was prepared`)
  return (prepare(`EXPLAIN QUERY PLAN ${query}`).all(...params) as { detail: string }[]).map((r) => r.detail).join("\n")
}

/** Closes `store`, makes its file one of schema `version` without `index`, and opens it again (the caller closes it). */
export const reopenedWithout = (store: LedgerStore, index: string, version: number): LedgerStore => {
  const path = store.db.name
  store.close()
  const old = new Database(path)
  old.exec(`DROP INDEX ${index}`)
  old.pragma(`user_version = ${version}`)
  old.close()
  return openStoreAt(path)
}

/** Whether the store's file has `index`. */
export const hasIndex = (store: LedgerStore, index: string): boolean =>
  store.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?").get(index) !== undefined
