/**
 * What `mem verify` found wrong with the hash chain, kept in the store itself (one row) rather
 * than in the memory of the process that ran verify: every process that opens the file sees it,
 * and each write checks it under the write lock (LedgerStore), so none appends to a log that is
 * known not to verify. Appending would chain new events onto a break and make recovery (export
 * what verifies, replay it into a new store) leave them out.
 *
 * Only a verify sets it, and only a verify lifts it: one that reads the whole chain sound again
 * (the damaged bytes were put back, say from a backup of the file) clears the row and says so.
 */
import type { Db } from "./database.js"
import { LogBroken } from "../errors.js"
import { statement } from "./statements.js"
import type { ChainBreak } from "../store-maintenance.js"

export const createChainBreak = (db: Db): void =>
  void db.exec(`
    CREATE TABLE IF NOT EXISTS chain_break (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      broken_at INTEGER NOT NULL,
      reason TEXT NOT NULL,
      found_at TEXT NOT NULL
    ) STRICT
  `)

export const readChainBreak = (db: Db): ChainBreak | undefined => {
  const row = statement(db, "SELECT broken_at, reason, found_at FROM chain_break WHERE id = 1").get() as
    | { broken_at: number; reason: string; found_at: string }
    | undefined
  return row === undefined ? undefined : { brokenAt: row.broken_at, reason: row.reason, foundAt: row.found_at }
}

/** Throws LogBroken when a verify found the chain broken: call it under the write lock, before writing. */
export const refuseIfBroken = (db: Db, path: string): void => {
  const found = readChainBreak(db)
  if (found !== undefined) throw new LogBroken({ path, ...found })
}

/** Runs in its own write transaction: verify reads outside one. */
export const recordChainBreak = (db: Db, found: ChainBreak): void =>
  void db
    .transaction(() =>
      statement(db, "INSERT OR REPLACE INTO chain_break (id, broken_at, reason, found_at) VALUES (1, ?, ?, ?)").run(found.brokenAt, found.reason, found.foundAt)
    )
    .immediate()

/** Lifts an earlier finding; returns it, or undefined when there was none. */
export const clearChainBreak = (db: Db): ChainBreak | undefined =>
  db
    .transaction(() => {
      const found = readChainBreak(db)
      if (found !== undefined) statement(db, "DELETE FROM chain_break WHERE id = 1").run()
      return found
    })
    .immediate()
