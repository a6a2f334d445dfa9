/** The `memories` projection: one row per memory, its current state (see memory-state.ts). */
import type { MemoryId } from "../../../domain/ids.js"
import type { Db } from "../database.js"
import { statement, type Writes } from "../statements.js"
import { NO_CUES, type MemoryState } from "../../../projections/memory-state.js"
import type { Projection } from "./projection.js"

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
  // stated_in, who stands behind the text (domain/vouching.ts). 7: written cues.
  version: 7,
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
        last_seq INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX IF NOT EXISTS memories_restatement ON memories(${RESTATED_BY("content_key")});
      CREATE INDEX IF NOT EXISTS memories_project ON memories(project, category);
    `),
  drop: (db) => db.exec("DROP TABLE IF EXISTS memories")
}

const COLUMNS =
  "key, id, content, content_key, category, scope, project, tags, cues, source, status, instruction_like, confidence, confirmations, confirmed_by_person, stated_in, superseded_by, forgotten, forgotten_reason, distinct_from, created_at, updated_at, origin, agent, last_seq"

export interface MemoryRow {
  key: number
  id: string
  content: string
  content_key: string
  category: string
  scope: string
  project: string | null
  tags: string
  cues: string
  source: string
  status: string
  instruction_like: number
  confidence: number
  confirmations: number
  confirmed_by_person: number
  stated_in: string
  superseded_by: string | null
  forgotten: number
  forgotten_reason: string | null
  distinct_from: string
  created_at: string
  updated_at: string
  origin: string
  agent: string
  last_seq: number
}

/** Rows were written from validated events, so they are trusted here without re-decoding. */
export const rowToMemory = (row: MemoryRow): MemoryState => ({
  id: row.id as MemoryId,
  key: row.key,
  content: row.content,
  contentKey: row.content_key,
  category: row.category as MemoryState["category"],
  scope: row.scope as MemoryState["scope"],
  project: row.project,
  tags: JSON.parse(row.tags) as string[],
  cues: row.cues === "[]" ? NO_CUES : (JSON.parse(row.cues) as string[]),
  source: row.source as MemoryState["source"],
  status: row.status as MemoryState["status"],
  instructionLike: row.instruction_like === 1,
  confidence: row.confidence,
  confirmations: row.confirmations,
  confirmedByPerson: row.confirmed_by_person === 1,
  statedIn: JSON.parse(row.stated_in) as string[],
  supersededBy: row.superseded_by as MemoryId | null,
  forgotten: row.forgotten === 1,
  forgottenReason: row.forgotten_reason,
  distinctFrom: JSON.parse(row.distinct_from) as MemoryId[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  origin: row.origin,
  agent: row.agent,
  lastSeq: row.last_seq
})

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
  to.run(UPSERT_MEMORY, [
    m.key,
    m.id,
    m.content,
    m.contentKey,
    m.category,
    m.scope,
    m.project,
    JSON.stringify(m.tags),
    JSON.stringify(m.cues),
    m.source,
    m.status,
    m.instructionLike ? 1 : 0,
    m.confidence,
    m.confirmations,
    m.confirmedByPerson ? 1 : 0,
    JSON.stringify(m.statedIn),
    m.supersededBy,
    m.forgotten ? 1 : 0,
    m.forgottenReason,
    JSON.stringify(m.distinctFrom),
    m.createdAt,
    m.updatedAt,
    m.origin,
    m.agent,
    m.lastSeq
  ])
}

export const deleteMemory = (db: Db, id: string): void => {
  statement(db, "DELETE FROM memories WHERE id = ?").run(id)
}

/** The live memory, if any, whose text says the same as `contentKey` in the same scope. */
export const findRestatement = (
  db: Db,
  contentKey: string,
  scope: string,
  project: string | null
): MemoryState | undefined => {
  const row = statement(
    db,
    `SELECT ${COLUMNS} FROM memories WHERE ${RESTATED_BY("content_key")} = ${RESTATED_BY("?")}
       AND content_key = ? AND scope = ? AND project IS ?
       AND forgotten = 0 AND superseded_by IS NULL ORDER BY key LIMIT 1`
  ).get(contentKey, contentKey, scope, project) as MemoryRow | undefined
  return row && rowToMemory(row)
}

export const MEMORY_COLUMNS = COLUMNS
