/**
 * The `fts` projection: FTS5 over content, tags and category with porter stemming, keyed by
 * the memory's integer key. Contentless (the text lives in `memories`), with delete support,
 * so the index holds no second copy of the text. `memories_fts_terms` exposes every indexed
 * term, which is how `verify` compares the index with a rebuild.
 */
import type { Db } from "../store/database.js"
import { statement } from "../store/statements.js"
import type { MemoryState } from "./memory-state.js"
import { bumpContentChanges } from "./content-changes.js"
import type { Projection } from "./projection.js"

export const ftsProjection: Projection = {
  name: "fts",
  version: 1,
  create: (db) =>
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
        content, tags, category,
        content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts_terms USING fts5vocab(memories_fts, 'instance');
    `),
  drop: (db) => db.exec("DROP TABLE IF EXISTS memories_fts_terms; DROP TABLE IF EXISTS memories_fts")
}

const indexedText = (m: MemoryState) => [m.content, m.tags.join(" "), m.category] as const

/** Keeps the index in step with one memory's change; unchanged text costs nothing. */
export const indexMemory = (db: Db, before: MemoryState | undefined, after: MemoryState | undefined): void => {
  if (before && after && before.key === after.key) {
    const [a, b, c] = indexedText(before)
    const [x, y, z] = indexedText(after)
    if (a === x && b === y && c === z) return
  }
  bumpContentChanges(db)
  if (before) statement(db, "DELETE FROM memories_fts WHERE rowid = ?").run(before.key)
  if (after) statement(db, "INSERT INTO memories_fts (rowid, content, tags, category) VALUES (?, ?, ?, ?)").run(after.key, ...indexedText(after))
}
