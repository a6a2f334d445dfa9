/**
 * The `cues` projection: each memory's learned cues (cue-state.ts) as one state row, and every
 * cue as a searchable row of its own in `cues_fts`. A cue's key says where it applies: the keys
 * of one place (global, or one project) form one range, `cueKeyRange`, so a search reads the
 * ranges of the places it searches from and a cue learned in one project is never matched from
 * another. A cue's row key is stable only until its memory's cues change: they are written anew
 * as a whole, which happens at an outcome, not at a search.
 *
 * Ranges rather than a place token in the search's MATCH: FTS5's BM25 counts the rows of every
 * phrase of the query before it scores one, a place token's too, though its weight is 0; at
 * 100,000 memories with three cues each, counting the global place's 75,000 rows was half of
 * every cue search. The `scope` column still holds the place token, unread by searches, so that
 * a cue's length, and so its BM25, is what it was.
 *
 * A cue's row leaves the index by FTS5's 'delete' command with the values it was indexed with,
 * made again from its stored text and place: a DELETE on a `contentless_delete` index would
 * leave its row count and token totals as they were, and cues are rewritten at every outcome
 * that teaches, so BM25 would drift from what a rebuild of the same log scores.
 * Cues that share a text in a place share a row of `cue_texts` (cue-texts.ts): searched by it
 * when a place's cues repeat.
 */
import type { MemoryId } from "../../../domain/ids.js"
import type { Db } from "../database.js"
import { statement, writesOn } from "../statements.js"
import { markChange } from "./content-changes.js"
import { codeColumn } from "../../../retrieval/code-words.js"
import type { CueState, LearnedCue, LearnedCueRow } from "../../../projections/cue-state.js"
import { placeToken } from "./fts-scope.js"
import type { Projection } from "./projection.js"
import { addCueText, CUE_TEXT_TABLES, DROP_CUE_TEXTS, removeCueText, type CueColumns } from "./cue-texts.js"

export const cuesProjection: Projection = {
  name: "cues",
  // 2: keys in ranges by place (cue_places). 3: removals subtract from BM25's totals.
  // 4: cues by their text (cue_texts).
  version: 4,
  create: (db) =>
    db.exec(`
      CREATE TABLE IF NOT EXISTS cue_states (
        memory_id TEXT PRIMARY KEY,
        state TEXT NOT NULL
      ) STRICT;
      CREATE TABLE IF NOT EXISTS learned_cues (
        key INTEGER PRIMARY KEY,
        memory_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        text TEXT NOT NULL,
        project TEXT,
        weight REAL NOT NULL,
        anchor_ms INTEGER NOT NULL,
        origin TEXT NOT NULL,
        outcome_event_id TEXT NOT NULL,
        recall_event_id TEXT NOT NULL,
        learned_at TEXT NOT NULL,
        text_id INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX IF NOT EXISTS learned_cues_memory ON learned_cues(memory_id);
      CREATE INDEX IF NOT EXISTS learned_cues_text ON learned_cues(text_id, key);
      CREATE TABLE IF NOT EXISTS cue_places (
        id INTEGER PRIMARY KEY,
        project TEXT NOT NULL UNIQUE
      ) STRICT;
      CREATE VIRTUAL TABLE IF NOT EXISTS cues_fts USING fts5(
        text, code, scope,
        content = '',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE VIRTUAL TABLE IF NOT EXISTS cues_fts_terms USING fts5vocab(cues_fts, 'instance');
      ${CUE_TEXT_TABLES}
    `),
  drop: (db) => db.exec(`${DROP_CUE_TEXTS} DROP TABLE IF EXISTS cues_fts_terms; DROP TABLE IF EXISTS cues_fts; DROP TABLE IF EXISTS learned_cues; DROP TABLE IF EXISTS cue_places;
       DROP TABLE IF EXISTS cue_states`)
}

export const loadCueState = (db: Db, memoryId: string): CueState | undefined => {
  const row = statement(db, "SELECT state FROM cue_states WHERE memory_id = ?").get(memoryId) as { state: string } | undefined
  return row && (JSON.parse(row.state) as CueState)
}

/** Replaces a memory's cue state and its searchable cues (none when `state` is undefined). */
// On the connection itself, as evidence is: cues change only at outcomes and drops, never in
// a bulk import's writer thread, and a cue's FTS row needs the key its insert was given.
export const writeCueState = (db: Db, memoryId: MemoryId, state: CueState | undefined): void => {
  const old = statement(db, "SELECT key, text, project, text_id FROM learned_cues WHERE memory_id = ?").all(memoryId) as {
    key: number
    text: string
    project: string | null
    text_id: number
  }[]
  for (const cue of old) {
    const { text, code, scope } = cueColumns(cue)
    statement(db, "INSERT INTO cues_fts (cues_fts, rowid, text, code, scope) VALUES ('delete', ?, ?, ?, ?)").run(cue.key, text, code, scope)
    removeCueText(db, cue.text_id)
  }
  statement(db, "DELETE FROM learned_cues WHERE memory_id = ?").run(memoryId)
  // The cues' rows and keys change: their vectors are refiled at the next sync (cue-vector-sync.ts).
  if (old.length > 0 || (state?.cues.length ?? 0) > 0) markChange(writesOn(db), memoryId)
  if (state === undefined || (state.cues.length === 0 && state.dropped.length === 0)) {
    statement(db, "DELETE FROM cue_states WHERE memory_id = ?").run(memoryId)
    return
  }
  statement(db, "INSERT INTO cue_states (memory_id, state) VALUES (?, ?) ON CONFLICT(memory_id) DO UPDATE SET state = excluded.state").run(
    memoryId,
    JSON.stringify(state)
  )
  state.cues.forEach((cue, position) => insertCue(db, memoryId, cue, position))
}

const insertCue = (db: Db, memoryId: MemoryId, cue: LearnedCue, position: number): void => {
  const range = cueKeyRange(db, cue.project, true)!
  const { last } = statement(db, "SELECT max(key) AS last FROM learned_cues WHERE key BETWEEN ? AND ?").get(range.first, range.last) as {
    last: number | null
  }
  const key = last === null ? range.first + 1 : last + 1
  const columns = cueColumns(cue)
  statement(db, "INSERT INTO cues_fts (rowid, text, code, scope) VALUES (?, ?, ?, ?)").run(key, columns.text, columns.code, columns.scope)
  const textId = addCueText(db, range.first / PLACE_SPAN, range, key, columns)
  statement(
    db,
    `INSERT INTO learned_cues (key, memory_id, position, text, project, weight, anchor_ms, origin, outcome_event_id, recall_event_id, learned_at, text_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
  ).run(key, memoryId, position, cue.text, cue.project, cue.weight, cue.anchorMs, cue.origin, cue.outcomeEventId, cue.recallEventId, cue.learnedAt, textId)
}

/** A cue's columns in `cues_fts`: its text, its code words, its place. */
const cueColumns = (cue: { readonly text: string; readonly project: string | null }): CueColumns => ({
  text: cue.text,
  code: codeColumn(cue.text),
  scope: placeToken({ project: cue.project, live: true })
})

/** Keys one place can hold: 2^32, under JavaScript's exact integers for 2^21 places. */
export const PLACE_SPAN = 2 ** 32

/**
 * The keys of the cues that apply in `project` (null: global ones): undefined when no cue was
 * ever filed there, unless `create` (under the write lock) files the place.
 */
export const cueKeyRange = (db: Db, project: string | null, create = false): { first: number; last: number } | undefined => {
  let id = project === null ? 0 : (statement(db, "SELECT id FROM cue_places WHERE project = ?").get(project) as { id: number } | undefined)?.id
  if (id === undefined) {
    if (!create) return undefined
    id = Number(statement(db, "INSERT INTO cue_places (project) VALUES (?)").run(project).lastInsertRowid)
  }
  return { first: id * PLACE_SPAN, last: (id + 1) * PLACE_SPAN - 1 }
}

/** A learned cue's columns as `LearnedCueRow` names them, of the table named `t` (or unnamed). */
const cueColumnsOf = (t = "") =>
  `${t}key, ${t}memory_id AS memoryId, ${t}text, ${t}project, ${t}weight, ${t}anchor_ms AS anchorMs, ${t}origin, ` +
  `${t}outcome_event_id AS outcomeEventId, ${t}recall_event_id AS recallEventId, ${t}learned_at AS learnedAt`
const CUE_COLUMNS = cueColumnsOf()

/** The learned cues of `keys` (cues' keys) that are still there, with their memories' keys, in key order. */
export const learnedCuesByKey = (db: Db, keys: ReadonlyArray<number>): Array<{ cue: LearnedCueRow; memoryKey: number }> => {
  if (keys.length === 0) return []
  const rows = statement(
    db,
    `SELECT ${cueColumnsOf("c.")}, m.key AS memoryKey
       FROM json_each(?) j CROSS JOIN learned_cues c ON c.key = j.value JOIN memories m ON m.id = c.memory_id ORDER BY c.key`
  ).all(JSON.stringify(keys)) as Array<LearnedCueRow & { memoryKey: number }>
  return rows.map(({ memoryKey, ...cue }) => ({ cue, memoryKey }))
}

/** The learned cues of some memories, strongest (as anchored) first, as their state keeps them. */
export const learnedCuesOf = (db: Db, memoryIds: ReadonlyArray<string>): Map<string, LearnedCueRow[]> => {
  const out = new Map<string, LearnedCueRow[]>()
  if (memoryIds.length === 0) return out
  const rows = statement(db, `SELECT ${CUE_COLUMNS} FROM learned_cues WHERE memory_id IN (SELECT value FROM json_each(?)) ORDER BY memory_id, position`).all(
    JSON.stringify(memoryIds)
  ) as LearnedCueRow[]
  for (const row of rows) out.set(row.memoryId, [...(out.get(row.memoryId) ?? []), row])
  return out
}
