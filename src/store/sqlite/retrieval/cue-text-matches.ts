/**
 * The best learned cues of one place, found by their texts (cue-texts.ts): each distinct text
 * that matches is scored once, with FTS5's own BM25 formula and `cues_fts`'s own statistics
 * (fts-statistics.ts), so each cue gets the very double `bm25()` would give it; then the best
 * texts' cues are read, best text first, up to `count`. Among cues of equal relevance at the
 * cut, which are kept is this reader's choice, as it is SQLite's when FTS5 ranks them.
 *
 * Used where cues repeat (REPEATS), since scoring a text here costs about what FTS5 spends on a
 * cue; elsewhere FTS5 scores the cues. Undefined when it cannot score exactly, and the caller
 * asks FTS5: a word FTS5 would read as several tokens or might stem otherwise (anything but
 * a-z), a place holding a text marked inexact, or a negative weight.
 */
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { porterStem } from "../../../retrieval/porter.js"
import { bm25Of, ftsTotals, idfOf, weightedCount, type FtsTotals } from "../projections/fts-statistics.js"

export interface CueMatch {
  readonly key: number
  readonly relevance: number
}

/** A query's phrases and their IDF in `cues_fts`: read once for every place searched. */
export interface CueTextQuery {
  readonly stems: ReadonlyArray<string>
  readonly idf: ReadonlyArray<number>
  readonly totals: FtsTotals
  readonly weights: readonly [number, number]
}

/** Cues per text from which a place is searched by its texts. */
const REPEATS = 2

const PLAIN_WORD = /^[a-z]+$/

/** `words`: the query's words as fts-query.ts gives them, each a phrase, in order; `weights`: text and code columns'. */
export const prepareCueTextQuery = (db: Db, words: ReadonlyArray<string>, weights: readonly [number, number]): CueTextQuery | undefined => {
  if (weights.some((w) => w < 0) || words.length === 0 || !words.every((w) => PLAIN_WORD.test(w))) return undefined
  const totals = ftsTotals(db, "cues_fts")
  if (totals === undefined) return undefined
  const stems = words.map(porterStem)
  const hits = words.map(cuesHolding(db))
  return { stems, idf: idfOf(db, totals, hits), totals, weights }
}

/**
 * How many cues hold a phrase, in the columns the search reads: what FTS5 counts for its IDF.
 * Where cues repeat, the cues of the texts that hold it, summed (every cue's text has a row, and
 * both indexes tokenize alike); else FTS5's count of the cues themselves.
 */
const cuesHolding = (db: Db) => {
  const { cues, texts } = statement(db, "SELECT coalesce(sum(cues), 0) AS cues, coalesce(sum(texts), 0) AS texts FROM cue_place_texts").get() as {
    cues: number
    texts: number
  }
  const count =
    cues >= REPEATS * texts
      ? statement(db, "SELECT coalesce(sum(t.cues), 0) AS n FROM cue_texts_fts f JOIN cue_texts t ON t.id = f.rowid WHERE cue_texts_fts MATCH ?")
      : statement(db, "SELECT count(*) AS n FROM cues_fts WHERE cues_fts MATCH ?")
  return (word: string) => (count.get(`{text code} : "${word}"`) as { n: number }).n
}

/** Whether a place's cues repeat enough, and all its texts are exact, to search it by its texts. */
export const searchedByTexts = (db: Db, place: number): boolean => {
  const row = statement(db, "SELECT cues, texts, inexact FROM cue_place_texts WHERE place = ?").get(place) as
    | { cues: number; texts: number; inexact: number }
    | undefined
  return row !== undefined && row.inexact === 0 && row.cues >= REPEATS * row.texts
}

interface TextRow {
  readonly id: number
  readonly tokens: number
  readonly terms: string
}

/** The `count` best cues of place `place` (`range`: its keys), best first; undefined to leave it to FTS5. */
export const bestCuesByText = (db: Db, q: CueTextQuery, words: string, range: { first: number; last: number }, count: number): CueMatch[] | undefined => {
  const texts = statement(
    db,
    `SELECT t.id, t.tokens, t.terms FROM cue_texts_fts f JOIN cue_texts t ON t.id = f.rowid
      WHERE cue_texts_fts MATCH ? AND f.rowid BETWEEN ? AND ?`
  ).all(`{text code} : (${words})`, range.first, range.last) as TextRow[]
  const scored: { id: number; relevance: number }[] = []
  for (const t of texts) {
    const terms = JSON.parse(t.terms) as Record<string, [number, number]>
    const freqs = q.stems.map((stem) => (Object.hasOwn(terms, stem) ? weightedCount(terms[stem]!, q.weights) : 0))
    // FTS5 matched the text by a word this tokenizer stems otherwise: not scored here.
    if (freqs.every((f) => f === 0)) return undefined
    scored.push({ id: t.id, relevance: bm25Of(q.idf, freqs, t.tokens, q.totals.avg) })
  }
  scored.sort((a, b) => b.relevance - a.relevance || a.id - b.id)
  const cuesOf = statement(db, "SELECT key FROM learned_cues WHERE text_id = ? ORDER BY key LIMIT ?")
  const out: CueMatch[] = []
  for (const text of scored) {
    if (out.length >= count) break
    for (const { key } of cuesOf.all(text.id, count - out.length) as { key: number }[]) out.push({ key, relevance: text.relevance })
  }
  return out
}
