/**
 * The `cues` projection: each memory's learned cues (cue-state.ts) as one state row, and every
 * cue as a searchable row of its own in `cues_fts`, with a place token for where it applies
 * (fts-scope.ts), so a cue learned in one project is never matched from another. A cue's row
 * key is stable only until its memory's cues change: they are written anew as a whole, which
 * happens at an outcome, not at a search.
 */
import type { MemoryId } from "../../../domain/ids.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { codeColumn } from "../../../retrieval/code-words.js"
import type { CueState, LearnedCue, LearnedCueRow } from "../../../projections/cue-state.js"
import { placeToken } from "./fts-scope.js"
import type { Projection } from "./projection.js"

export const cuesProjection: Projection = {
  name: "cues",
  version: 1,
  create: (db) =>
    db.exec(`
      CREATE TABLE IF NOT EXISTS cue_states (
        memory_id TEXT PRIMARY KEY,
        state TEXT NOT NULL
      ) STRICT;
      CREATE TABLE IF NOT EXISTS learned_cues (
        key INTEGER PRIMARY KEY,
        memory_id TEXT NOT NULL,
        text TEXT NOT NULL,
        project TEXT,
        weight REAL NOT NULL,
        anchor_ms INTEGER NOT NULL,
        origin TEXT NOT NULL,
        outcome_event_id TEXT NOT NULL,
        recall_event_id TEXT NOT NULL,
        learned_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX IF NOT EXISTS learned_cues_memory ON learned_cues(memory_id);
      CREATE VIRTUAL TABLE IF NOT EXISTS cues_fts USING fts5(
        text, code, scope,
        content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE IF NOT EXISTS cues_fts_terms USING fts5vocab(cues_fts, 'instance');
    `),
  drop: (db) => db.exec("DROP TABLE IF EXISTS cues_fts_terms; DROP TABLE IF EXISTS cues_fts; DROP TABLE IF EXISTS learned_cues; DROP TABLE IF EXISTS cue_states")
}

export const loadCueState = (db: Db, memoryId: string): CueState | undefined => {
  const row = statement(db, "SELECT state FROM cue_states WHERE memory_id = ?").get(memoryId) as { state: string } | undefined
  return row && (JSON.parse(row.state) as CueState)
}

/** Replaces a memory's cue state and its searchable cues (none when `state` is undefined). */
// On the connection itself, as evidence is: cues change only at outcomes and drops, never in
// a bulk import's writer thread, and a cue's FTS row needs the key its insert was given.
export const writeCueState = (db: Db, memoryId: MemoryId, state: CueState | undefined): void => {
  const keys = statement(db, "SELECT key FROM learned_cues WHERE memory_id = ?").all(memoryId) as { key: number }[]
  for (const { key } of keys) statement(db, "DELETE FROM cues_fts WHERE rowid = ?").run(key)
  statement(db, "DELETE FROM learned_cues WHERE memory_id = ?").run(memoryId)
  if (state === undefined || (state.cues.length === 0 && state.dropped.length === 0)) {
    statement(db, "DELETE FROM cue_states WHERE memory_id = ?").run(memoryId)
    return
  }
  statement(db, "INSERT INTO cue_states (memory_id, state) VALUES (?, ?) ON CONFLICT(memory_id) DO UPDATE SET state = excluded.state").run(
    memoryId,
    JSON.stringify(state)
  )
  for (const cue of state.cues) insertCue(db, memoryId, cue)
}

const insertCue = (db: Db, memoryId: MemoryId, cue: LearnedCue): void => {
  const { lastInsertRowid } = statement(
    db,
    `INSERT INTO learned_cues (memory_id, text, project, weight, anchor_ms, origin, outcome_event_id, recall_event_id, learned_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
  ).run(memoryId, cue.text, cue.project, cue.weight, cue.anchorMs, cue.origin, cue.outcomeEventId, cue.recallEventId, cue.learnedAt)
  statement(db, "INSERT INTO cues_fts (rowid, text, code, scope) VALUES (?, ?, ?, ?)").run(
    lastInsertRowid,
    cue.text,
    codeColumn(cue.text),
    placeToken({ project: cue.project, live: true })
  )
}


const CUE_COLUMNS =
  "key, memory_id AS memoryId, text, project, weight, anchor_ms AS anchorMs, origin, outcome_event_id AS outcomeEventId, recall_event_id AS recallEventId, learned_at AS learnedAt"

/** The learned cues of some memories, strongest (as anchored) first. */
export const learnedCuesOf = (db: Db, memoryIds: ReadonlyArray<string>): Map<string, LearnedCueRow[]> => {
  const out = new Map<string, LearnedCueRow[]>()
  if (memoryIds.length === 0) return out
  const rows = statement(db, `SELECT ${CUE_COLUMNS} FROM learned_cues WHERE memory_id IN (SELECT value FROM json_each(?)) ORDER BY key`).all(
    JSON.stringify(memoryIds)
  ) as LearnedCueRow[]
  for (const row of rows) out.set(row.memoryId, [...(out.get(row.memoryId) ?? []), row])
  return out
}
