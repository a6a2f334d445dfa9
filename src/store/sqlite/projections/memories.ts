/** The `memories` projection: one row per memory, its current state (see memory-state.ts). */
import type { MemoryId } from "../../../domain/ids.js"
import type { Db } from "../database.js"
import { statement, type Writes } from "../statements.js"
import type { MemoryState } from "../../../projections/memory-state.js"
import { MEMORY_COLUMNS, memoryParams, rowToMemory, type MemoryRow } from "../../projection-rows.js"

export { MEMORY_COLUMNS, rowToMemory, type MemoryRow }
import type { Projection } from "./projection.js"
import type { Viewer } from "../../../domain/viewer.js"

/**
 * What `memories_restatement` indexes: the first 48 bits of a restatement key, as a blob.
 * Keys are hashes, so every add inserts at a random place in that index, and each batch of an
 * import rewrote most of its pages while they held the whole key, scope and project
 * (bench/ingest-floor: 3.11 s before, 2.72 s after). Six bytes still single out one row
 * among millions; the lookup checks the whole key, scope and project on the row it finds.
 */
const RESTATED_BY = (key: string): string => `unhex(substr(${key}, 1, 12))`

export const memoriesProjection: Projection = {
  name: "memories",
  // 3: instruction_like, the privacy scan's flag. 4: no recall-filter index (recall filters
  // scope in the full-text index, fts-scope.ts). 5: the restatement index holds a 6-byte prefix
  // of the key (RESTATED_BY), not the key, scope and project. 6: confirmed_by_person and
  // stated_in, who stands behind the text (domain/vouching.ts). 7: written cues. 8: private_to,
  // whom a private memory is private to (domain/viewer.ts).
  version: 8,
  create: (db) =>
    db.exec(`
      CREATE TABLE IF NOT EXISTS memories (
        key INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        content TEXT NOT NULL,
        content_key TEXT NOT NULL,
        category TEXT NOT NULL,
        scope TEXT NOT NULL,
        project TEXT,
        tags TEXT NOT NULL,
        cues TEXT NOT NULL,
        source TEXT NOT NULL,
        status TEXT NOT NULL,
        instruction_like INTEGER NOT NULL,
        confidence REAL NOT NULL,
        confirmations INTEGER NOT NULL,
        confirmed_by_person INTEGER NOT NULL,
        stated_in TEXT NOT NULL,
        superseded_by TEXT,
        forgotten INTEGER NOT NULL,
        forgotten_reason TEXT,
        distinct_from TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        origin TEXT NOT NULL,
        agent TEXT NOT NULL,
        last_seq INTEGER NOT NULL,
        private_to TEXT
      ) STRICT;
      CREATE INDEX IF NOT EXISTS memories_restatement ON memories(${RESTATED_BY("content_key")});
      CREATE INDEX IF NOT EXISTS memories_project ON memories(project, category);
    `),
  drop: (db) => db.exec("DROP TABLE IF EXISTS memories")
}

const COLUMNS = MEMORY_COLUMNS

export const loadMemory = (db: Db, id: string): MemoryState | undefined => {
  const row = statement(db, `SELECT ${COLUMNS} FROM memories WHERE id = ?`).get(id) as MemoryRow | undefined
  return row && rowToMemory(row)
}

/**
 * An upsert on `key` rather than INSERT OR REPLACE: REPLACE deletes and re-inserts through a
 * statement journal, which cost most of a rebuild's time per memory (bench/rebuild). `key` and
 * `id` name the same memory on every path, so `key` alone decides the conflict.
 */
const UPSERT_MEMORY = `INSERT INTO memories (${COLUMNS}) VALUES (${COLUMNS.split(",").map(() => "?").join(",")})
  ON CONFLICT(key) DO UPDATE SET ${COLUMNS.split(",")
    .map((c) => c.trim())
    .filter((c) => c !== "key")
    .map((c) => `${c} = excluded.${c}`)
    .join(", ")}`

export const writeMemory = (to: Writes, m: MemoryState): void => {
  to.run(UPSERT_MEMORY, memoryParams(m))
}

export const deleteMemory = (db: Db, id: string): void => {
  statement(db, "DELETE FROM memories WHERE id = ?").run(id)
}

/** The live memory, if any, whose text says the same as `contentKey` in the same scope, among those `viewer` sees. */
export const findRestatement = (
  db: Db,
  contentKey: string,
  scope: string,
  project: string | null,
  viewer: Viewer = null
): MemoryState | undefined => {
  const row = statement(
    db,
    `SELECT ${COLUMNS} FROM memories WHERE ${RESTATED_BY("content_key")} = ${RESTATED_BY("?")}
       AND content_key = ? AND scope = ? AND project IS ?
       AND forgotten = 0 AND superseded_by IS NULL AND (private_to IS NULL OR private_to IS ?) ORDER BY key LIMIT 1`
  ).get(contentKey, contentKey, scope, project, viewer) as MemoryRow | undefined
  return row && rowToMemory(row)
}

