/**
 * The `fts` projection: FTS5 over content, written cues, tags, category and code words (the
 * parts of identifiers, code-words.ts) with porter stemming, keyed by
 * the memory's integer key, plus a `scope` column of tokens for its place and category
 * (fts-scope.ts) so recall filters scope inside the index. Contentless (the text lives in
 * `memories`), so the index holds no second copy of the text.
 *
 * A row is removed with FTS5's 'delete' command, given the values it was indexed with (the
 * memory as it was: the same pure functions make them again), not with `contentless_delete`'s
 * DELETE: that one leaves the index's row count and token totals as they were, so every edit
 * would move BM25 away from what a rebuild of the same log scores.
 * `memories_fts_terms` exposes every indexed term, which is how `verify` compares the index
 * with a rebuild.
 */
import type { Writes } from "../statements.js"
import { isLive, type MemoryState } from "../../../projections/memory-state.js"
import { markChange } from "./content-changes.js"
import { scopeColumn } from "./fts-scope.js"
import { indexedColumns, sameIndexedText } from "../../../retrieval/indexed-text.js"
import type { Projection } from "./projection.js"

export const ftsProjection: Projection = {
  name: "fts",
  // 2: the scope column. 3: written cues and code words (code-words.ts) in columns of their own.
  // 4: a private memory's place names its owner (place-tokens.ts).
  // 5: removals subtract from the totals BM25 reads (the 'delete' command).
  version: 5,
  create: (db) =>
    db.exec(`
      CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
        content, cues, tags, category, code, scope,
        content = '',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts_terms USING fts5vocab(memories_fts, 'instance');
      CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts_rows USING fts5vocab(memories_fts, 'row');
    `),
  drop: (db) => db.exec("DROP TABLE IF EXISTS memories_fts_rows; DROP TABLE IF EXISTS memories_fts_terms; DROP TABLE IF EXISTS memories_fts")
}

const ADD_ROW = "INSERT INTO memories_fts (rowid, content, cues, tags, category, code, scope) VALUES (?, ?, ?, ?, ?, ?, ?)"
const REMOVE_ROW =
  "INSERT INTO memories_fts (memories_fts, rowid, content, cues, tags, category, code, scope) VALUES ('delete', ?, ?, ?, ?, ?, ?, ?)"

const scopeText = (m: MemoryState) => scopeColumn({ project: m.project, live: isLive(m), owner: m.privateTo }, m.category)

/**
 * Keeps the index in step with one memory's change; unchanged text and scope cost nothing.
 * A change of the words or of the project counts as a content change: vectors follow the words
 * and are filed by project (vectors.ts), but a forget or a supersession moves neither. `count`
 * records it (by default, at once, marking the memory: content-changes.ts).
 */
export const indexMemory = (
  to: Writes,
  before: MemoryState | undefined,
  after: MemoryState | undefined,
  count: (to: Writes, memoryId: string) => void = markChange
): void => {
  const memory = after ?? before
  if (memory === undefined) return
  const textChanged = !(before && after && before.key === after.key && sameIndexedText(before, after))
  if (!textChanged && scopeText(before!) === scopeText(after!)) return
  if (textChanged || before!.project !== after!.project) count(to, memory.id)
  if (before) to.run(REMOVE_ROW, [before.key, ...indexedColumns(before), scopeText(before)])
  if (after) to.run(ADD_ROW, [after.key, ...indexedColumns(after), scopeText(after)])
}
