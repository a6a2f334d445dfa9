/**
 * Learned cues by their text: one row per distinct text in each place, with how many cues hold
 * it, and its own small full-text index. Cues repeat: a cue is a question an agent asked, and
 * the same question is learned for every memory it led to; at 1,000,000 events the console
 * bench's 100,000 memories had some 24,000 cues matching one query, in a handful of texts.
 * Cues with one text in one place have one BM25 (the same words, the same length), so a search
 * can score each text once (cue-text-matches.ts) instead of every cue.
 *
 * Each text keeps what its BM25 needs: its length as FTS5 counts a cue's row (text, code words
 * and the place token) and how often each stem is in its text and code words, by the tokenizer
 * the PostgreSQL store indexes with (stems.ts). A text whose length comes out otherwise than
 * FTS5's own count for its first cue is marked inexact, and its place is then searched by FTS5.
 * A text's id lies in its place's range (cues.ts), as its cues' keys do.
 */
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { indexTokens } from "../../../retrieval/stems.js"
import { ftsLength } from "./fts-statistics.js"

export const CUE_TEXT_TABLES = `
  CREATE TABLE IF NOT EXISTS cue_texts (
    id INTEGER PRIMARY KEY,
    place INTEGER NOT NULL,
    text TEXT NOT NULL,
    cues INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    terms TEXT NOT NULL,
    exact INTEGER NOT NULL,
    UNIQUE (place, text)
  ) STRICT;
  CREATE VIRTUAL TABLE IF NOT EXISTS cue_texts_fts USING fts5(
    text, code,
    content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS cue_texts_fts_terms USING fts5vocab(cue_texts_fts, 'instance');
  CREATE TABLE IF NOT EXISTS cue_place_texts (
    place INTEGER PRIMARY KEY,
    cues INTEGER NOT NULL,
    texts INTEGER NOT NULL,
    inexact INTEGER NOT NULL
  ) STRICT;
`

export const DROP_CUE_TEXTS = "DROP TABLE IF EXISTS cue_texts_fts_terms; DROP TABLE IF EXISTS cue_texts_fts; DROP TABLE IF EXISTS cue_texts; DROP TABLE IF EXISTS cue_place_texts;"

/** A cue's columns in `cues_fts`. */
export interface CueColumns {
  readonly text: string
  readonly code: string
  readonly scope: string
}

/**
 * Counts one more cue of `columns.text` in place `place` (`range`: the place's keys), the cue
 * itself already in `cues_fts` under `key`; returns the text's id.
 */
export const addCueText = (db: Db, place: number, range: { first: number; last: number }, key: number, columns: CueColumns): number => {
  const found = statement(db, "SELECT id FROM cue_texts WHERE place = ? AND text = ?").get(place, columns.text) as { id: number } | undefined
  if (found !== undefined) {
    statement(db, "UPDATE cue_texts SET cues = cues + 1 WHERE id = ?").run(found.id)
    statement(db, "UPDATE cue_place_texts SET cues = cues + 1 WHERE place = ?").run(place)
    return found.id
  }
  const { last } = statement(db, "SELECT max(id) AS last FROM cue_texts WHERE id BETWEEN ? AND ?").get(range.first, range.last) as { last: number | null }
  const id = last === null ? range.first + 1 : last + 1
  const text = indexTokens(columns.text)
  const code = indexTokens(columns.code)
  const tokens = text.length + code.length + indexTokens(columns.scope).length
  const terms: Record<string, [number, number]> = {}
  for (const t of text) (terms[t] ??= [0, 0])[0]++
  for (const t of code) (terms[t] ??= [0, 0])[1]++
  const exact = ftsLength(db, "cues_fts", key) === tokens
  statement(db, "INSERT INTO cue_texts (id, place, text, cues, tokens, terms, exact) VALUES (?, ?, ?, 1, ?, ?, ?)").run(
    id,
    place,
    columns.text,
    tokens,
    JSON.stringify(terms),
    exact ? 1 : 0
  )
  statement(db, "INSERT INTO cue_texts_fts (rowid, text, code) VALUES (?, ?, ?)").run(id, columns.text, columns.code)
  statement(
    db,
    `INSERT INTO cue_place_texts (place, cues, texts, inexact) VALUES (?, 1, 1, ?)
       ON CONFLICT(place) DO UPDATE SET cues = cues + 1, texts = texts + 1, inexact = inexact + excluded.inexact`
  ).run(place, exact ? 0 : 1)
  return id
}

/** Counts one cue of text `id` fewer; the text goes with its last cue. */
export const removeCueText = (db: Db, id: number): void => {
  const row = statement(db, "SELECT place, cues, exact FROM cue_texts WHERE id = ?").get(id) as { place: number; cues: number; exact: number } | undefined
  if (row === undefined) return
  if (row.cues > 1) {
    statement(db, "UPDATE cue_texts SET cues = cues - 1 WHERE id = ?").run(id)
    statement(db, "UPDATE cue_place_texts SET cues = cues - 1 WHERE place = ?").run(row.place)
    return
  }
  statement(db, "DELETE FROM cue_texts WHERE id = ?").run(id)
  statement(db, "DELETE FROM cue_texts_fts WHERE rowid = ?").run(id)
  statement(db, "UPDATE cue_place_texts SET cues = cues - 1, texts = texts - 1, inexact = inexact - ? WHERE place = ?").run(row.exact === 1 ? 0 : 1, row.place)
  statement(db, "DELETE FROM cue_place_texts WHERE place = ? AND cues = 0").run(row.place)
}
