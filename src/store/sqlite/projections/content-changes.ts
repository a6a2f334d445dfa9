/**
 * A counter of changes to the indexed text (a memory added, revised, removed, or the index
 * rebuilt), bumped in the same transaction as the change. Work derived from the text outside
 * the append transaction (vectors) compares it with the value it last caught up with, so a
 * search costs one row read when nothing changed instead of a scan of every memory. It is not a
 * projection: it survives rebuilds, which bump it too.
 */
import type { Db } from "../database.js"
import { statement, type Writes } from "../statements.js"

export const createContentChanges = (db: Db): void => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS content_changes (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL) STRICT;
    INSERT OR IGNORE INTO content_changes (id, n) VALUES (1, 0);
    CREATE TABLE IF NOT EXISTS derived_sync (name TEXT PRIMARY KEY, changes INTEGER NOT NULL) STRICT;
  `)
}

export const bumpContentChanges = (to: Writes): void => {
  to.run("UPDATE content_changes SET n = n + 1 WHERE id = 1", [])
}

/** `by` changes at once: a bulk import counts its batch's and writes the sum. */
export const addContentChanges = (to: Writes, by: number): void => {
  if (by > 0) to.run("UPDATE content_changes SET n = n + ? WHERE id = 1", [by])
}

export const contentChanges = (db: Db): number =>
  (statement(db, "SELECT n FROM content_changes WHERE id = 1").get() as { n: number } | undefined)?.n ?? 0

/** The change count `name` (e.g. one embedding model's vectors) last caught up with. */
export const syncedChanges = (db: Db, name: string): number | undefined =>
  (statement(db, "SELECT changes FROM derived_sync WHERE name = ?").get(name) as { changes: number } | undefined)?.changes

export const markSynced = (db: Db, name: string, changes: number): void => {
  statement(db, "INSERT OR REPLACE INTO derived_sync (name, changes) VALUES (?, ?)").run(name, changes)
}
