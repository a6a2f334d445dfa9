/**
 * Learned cues' words ordered best first, beside `cues_fts`, so that a search for common words
 * reads a few hundred cues instead of scoring every one FTS5 finds (cue-top.ts). One row per
 * (cue, word): how often the word is in the cue's text and code columns, the cue's length as
 * FTS5 counts it, and an `impact`, the word's BM25 share with every column weighted 1 against a
 * reference length: the order a search reads a word's rows in, and a bound on what any row not
 * read could score.
 *
 * The rows hold what FTS5 scores with, computed by the same tokenizer the PostgreSQL store
 * indexes with (stems.ts). A cue whose length comes out differently from FTS5's own count
 * (its docsize row) is not filed and marks the index inexact: searches then score with FTS5.
 * The stems of stop words are not filed (a query never searches them; one that stems to one
 * is scored by FTS5), which keeps the table a third smaller.
 */
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { indexTokens } from "../../../retrieval/stems.js"
import { STOP_WORDS } from "../../../retrieval/fts-query.js"
import { porterStem } from "../../../retrieval/porter.js"
import { ftsTotals, K1, B, varints } from "./fts-statistics.js"

export const CUE_POSTINGS_TABLES = `
  CREATE TABLE IF NOT EXISTS cue_postings (
    term TEXT NOT NULL,
    place INTEGER NOT NULL,
    impact REAL NOT NULL,
    key INTEGER NOT NULL,
    text_tf INTEGER NOT NULL,
    code_tf INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    PRIMARY KEY (term, place, impact, key)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS cue_postings_of_cue ON cue_postings(key, term, text_tf, code_tf, tokens);
  CREATE TABLE IF NOT EXISTS cue_postings_state (
    id INTEGER PRIMARY KEY CHECK (id = 0),
    ref_avg REAL NOT NULL,
    inexact INTEGER NOT NULL
  ) STRICT;
`

export const DROP_CUE_POSTINGS = "DROP TABLE IF EXISTS cue_postings; DROP TABLE IF EXISTS cue_postings_state;"

/** Stems no query searches by its own words: those of stop words. */
export const STOP_STEMS: ReadonlySet<string> = new Set([...STOP_WORDS].map(porterStem))

/** SQL of a row's impact against the reference length `ref`. */
const impactSql = (ref: string) =>
  `(text_tf + code_tf) * ${K1 + 1} / ((text_tf + code_tf) + ${K1} * (${1 - B} + ${B} * tokens / ${ref}))`

/** A row's impact, as `impactSql` computes it. */
const impactOf = (f: number, tokens: number, ref: number) => (f * (K1 + 1)) / (f + K1 * (1 - B + (B * tokens) / ref))

/** While the index is this small, its reference length follows the average (as keyword-index.ts does on PostgreSQL). */
const SMALL_INDEX = 2_000

interface State {
  readonly ref_avg: number
  readonly inexact: number
}

export const postingsState = (db: Db): State | undefined => statement(db, "SELECT ref_avg, inexact FROM cue_postings_state WHERE id = 0").get() as State | undefined

/**
 * Files one cue, already in `cues_fts` under `key`, in place `place`; returns whether it was
 * filed exactly (false: its length as tokenized here differs from FTS5's).
 */
export const fileCue = (db: Db, key: number, place: number, columns: { text: string; code: string; scope: string }): boolean => {
  const text = indexTokens(columns.text)
  const code = indexTokens(columns.code)
  const tokens = text.length + code.length + indexTokens(columns.scope).length
  const totals = ftsTotals(db, "cues_fts")
  let state = postingsState(db)
  if (state === undefined) {
    state = { ref_avg: Math.max(1, totals?.avg ?? tokens), inexact: 0 }
    statement(db, "INSERT INTO cue_postings_state (id, ref_avg, inexact) VALUES (0, ?, 0)").run(state.ref_avg)
  }
  if (tokens !== ftsLength(db, key)) {
    statement(db, "UPDATE cue_postings_state SET inexact = inexact + 1 WHERE id = 0").run()
    return false
  }
  const tf = new Map<string, [number, number]>()
  for (const t of text) if (!STOP_STEMS.has(t)) (tf.get(t) ?? tf.set(t, [0, 0]).get(t)!)[0]++
  for (const t of code) if (!STOP_STEMS.has(t)) (tf.get(t) ?? tf.set(t, [0, 0]).get(t)!)[1]++
  const insert = statement(db, "INSERT INTO cue_postings (term, place, impact, key, text_tf, code_tf, tokens) VALUES (?, ?, ?, ?, ?, ?, ?)")
  for (const [term, [t, c]] of tf) insert.run(term, place, impactOf(t + c, tokens, state.ref_avg), key, t, c, tokens)
  followAverage(db, state, totals)
  return true
}

/** Removes a cue's rows; `exact`: whether it was filed (fileCue's answer). */
export const unfileCue = (db: Db, key: number, exact: boolean): void => {
  statement(db, "DELETE FROM cue_postings WHERE key = ?").run(key)
  if (!exact) statement(db, "UPDATE cue_postings_state SET inexact = inexact - 1 WHERE id = 0").run()
}

/** A store that grows from empty would otherwise keep its first cues' length for good, and its bounds would slacken. */
const followAverage = (db: Db, state: State, totals: { rows: number; avg: number } | undefined) => {
  if (totals === undefined || totals.rows > SMALL_INDEX || Math.abs(totals.avg / state.ref_avg - 1) <= 0.25) return
  statement(db, "UPDATE cue_postings_state SET ref_avg = ? WHERE id = 0").run(totals.avg)
  statement(db, `UPDATE cue_postings SET impact = ${impactSql("?")}`).run(totals.avg)
}

/** A row's length in tokens as FTS5 counts it (its docsize row: a varint per column). */
const ftsLength = (db: Db, key: number): number => {
  const row = statement(db, "SELECT sz FROM cues_fts_docsize WHERE id = ?").get(key) as { sz: Buffer } | undefined
  return row === undefined ? -1 : varints(row.sz).reduce((a, b) => a + b, 0)
}
