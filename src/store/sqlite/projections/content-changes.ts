/**
 * A counter of changes to the indexed text (a memory added, revised, removed, or the index
 * rebuilt), bumped in the same transaction as the change. Work derived from the text outside
 * the append transaction (vectors) compares it with the value it last caught up with, so a
 * search costs one row read when nothing changed instead of a scan of every memory. It is not a
 * projection: it survives rebuilds, which bump it too.
 *
 * A change to one memory (its text, project or learned cues) also marks that memory with the
 * counter's value, so the vectors' sync can look at the memories marked instead of every one;
 * the last `KEPT_MARKS` marks are kept. A change of many at once (an import, a rebuild) bumps
 * the counter unmarked, and a sync that meets one reads everything.
 */
import type { Db } from "../database.js"
import { statement, type Writes } from "../statements.js"

export const createContentChanges = (db: Db): void => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS content_changes (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL) STRICT;
    INSERT OR IGNORE INTO content_changes (id, n) VALUES (1, 0);
    CREATE TABLE IF NOT EXISTS derived_sync (name TEXT PRIMARY KEY, changes INTEGER NOT NULL) STRICT;
    CREATE TABLE IF NOT EXISTS change_marks (change INTEGER PRIMARY KEY, memory_id TEXT NOT NULL) STRICT;
  `)
}

/** How many of the latest changes stay marked. */
export const KEPT_MARKS = 10_000

/**
 * A change to one memory: bumps the counter and marks the memory with its value (through `to`,
 * as any projection write). Each statement writes one row, as the bump alone did: a statement
 * that may write several opens a savepoint, at which FTS5 flushes the index rows written
 * between them (rebuild.ts). The mark that falls out of the window goes with it; marks skipped
 * over by a change of many go at the next such change (`addContentChanges`).
 */
export const markChange = (to: Writes, memoryId: string): void => {
  to.run("UPDATE content_changes SET n = n + 1 WHERE id = 1", [])
  to.run("INSERT INTO change_marks (change, memory_id) VALUES ((SELECT n FROM content_changes WHERE id = 1), ?)", [memoryId])
  to.run(`DELETE FROM change_marks WHERE change = (SELECT n FROM content_changes WHERE id = 1) - ${KEPT_MARKS}`, [])
}

/** The marked changes after `changes`, and the memories they marked. */
export const markedSince = (db: Db, changes: number): { marked: number; memoryIds: string[] } => {
  const rows = statement(db, "SELECT memory_id FROM change_marks WHERE change > ?").all(changes) as { memory_id: string }[]
  return { marked: rows.length, memoryIds: [...new Set(rows.map((r) => r.memory_id))] }
}

/** `by` changes at once, unmarked: a bulk import counts its batch's and writes the sum, as a rebuild does. */
export const addContentChanges = (to: Writes, by: number): void => {
  if (by <= 0) return
  to.run("UPDATE content_changes SET n = n + ? WHERE id = 1", [by])
  to.run(`DELETE FROM change_marks WHERE change <= (SELECT n FROM content_changes WHERE id = 1) - ${KEPT_MARKS}`, [])
}

export const contentChanges = (db: Db): number =>
  (statement(db, "SELECT n FROM content_changes WHERE id = 1").get() as { n: number } | undefined)?.n ?? 0

/** The change count `name` (e.g. one embedding model's vectors) last caught up with. */
export const syncedChanges = (db: Db, name: string): number | undefined =>
  (statement(db, "SELECT changes FROM derived_sync WHERE name = ?").get(name) as { changes: number } | undefined)?.changes

export const markSynced = (db: Db, name: string, changes: number): void => {
  statement(db, "INSERT OR REPLACE INTO derived_sync (name, changes) VALUES (?, ?)").run(name, changes)
}
