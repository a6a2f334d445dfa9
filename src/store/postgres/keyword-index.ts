/**
 * Keyword search on PostgreSQL, scored as SQLite's FTS5 scores it: BM25 (k1 1.2, b 0.75) with
 * a weight per column, over the same tokens (porter stems of unicode61's tokens, stems.ts) and
 * the same code words. PostgreSQL's own full-text ranking (ts_rank) is not BM25, and a
 * tsvector keeps four weight classes where the memories have five columns, so the index is a
 * table of its own: one row per (term, memory) with the term's count in each column, filed
 * under the memory's place and category (place-tokens.ts) so that a search reads only the
 * rows in its scope, through the primary key. Document frequencies and the collection's size
 * and length are kept beside it, in the same transaction as every change.
 *
 * Two indexes share the tables: `memories` (content, written cues, tags, category, code words)
 * and `cues` (a learned cue's text and its code words).
 *
 * Where FTS5 reads a word that is several tokens (`snake_case`) as a phrase, this reads its
 * tokens as separate terms: the only place the two can rank differently.
 */
import { categoryToken, placeToken } from "../../retrieval/place-tokens.js"
import { indexTokens } from "../../retrieval/stems.js"
import { queryWords } from "../../retrieval/fts-query.js"
import type { SyncPg } from "./sync-client.js"

export type IndexName = "memories" | "cues"

/** FTS5's BM25 constants. */
const K1 = 1.2
const B = 0.75

export interface IndexedDocument {
  readonly key: number
  /** The text of each weighted column, in the order of the weights searches pass. */
  readonly columns: ReadonlyArray<string>
  readonly place: string
  readonly category: string
  /** Tokens outside the weighted columns that FTS5 counts in a row's length (its scope column). */
  readonly extraTokens: number
}

/** Adds a document's terms; its counts go into the collection's statistics. */
export const indexDocument = (db: SyncPg, index: IndexName, doc: IndexedDocument): void => {
  const counts = new Map<string, number[]>()
  let tokens = doc.extraTokens
  doc.columns.forEach((text, column) => {
    for (const term of indexTokens(text)) {
      tokens++
      let tf = counts.get(term)
      if (tf === undefined) counts.set(term, (tf = doc.columns.map(() => 0)))
      tf[column]!++
    }
  })
  const terms = [...counts.keys()]
  const tfs = doc.columns.map((_, column) => terms.map((t) => counts.get(t)![column]!))
  db.run(
    `INSERT INTO keyword_terms (index_name, term, place, category, key, tokens, tf)
       SELECT $1, t.term, $2, $3, $4, $5, ARRAY[${tfs.map((_, i) => `t.c${i}`).join(", ")}]::real[]
       FROM unnest($6::text[]${tfs.map((_, i) => `, $${7 + i}::real[]`).join("")}) AS t(term${tfs.map((_, i) => `, c${i}`).join("")})`,
    [index, doc.place, doc.category, doc.key, tokens, terms, ...tfs]
  )
  db.run(
    `INSERT INTO keyword_df (index_name, term, df) SELECT $1, unnest($2::text[]), 1
       ON CONFLICT (index_name, term) DO UPDATE SET df = keyword_df.df + 1`,
    [index, terms]
  )
  db.run("UPDATE keyword_totals SET docs = docs + 1, tokens = tokens + $2 WHERE index_name = $1", [index, tokens])
}

/**
 * Removes a document's terms and its share of the statistics. A document with no term at all
 * still counted one document: `tokens` says how long it was (its extra tokens alone).
 */
export const unindexDocument = (db: SyncPg, index: IndexName, key: number, emptyTokens: number): void => {
  db.run(
    `WITH gone AS (DELETE FROM keyword_terms WHERE index_name = $1 AND key = $2 RETURNING term, tokens),
          df AS (UPDATE keyword_df SET df = df - 1 WHERE index_name = $1 AND term IN (SELECT term FROM gone))
     UPDATE keyword_totals SET docs = docs - 1, tokens = tokens - coalesce((SELECT max(tokens) FROM gone), $3)
      WHERE index_name = $1`,
    [index, key, emptyTokens]
  )
}

/** A query's terms, each with its IDF as FTS5 computes it (log((N - n + 0.5) / (n + 0.5)), at least 1e-6). */
export interface WeighedQuery {
  readonly terms: string[]
  readonly idfs: number[]
  readonly averageLength: number
}

export const weighQuery = (db: SyncPg, index: IndexName, text: string): WeighedQuery | undefined => {
  const terms = queryWords(text).flatMap((word) => indexTokens(word))
  if (terms.length === 0) return undefined
  const totals = db.one<{ docs: number; tokens: number }>("SELECT docs, tokens FROM keyword_totals WHERE index_name = $1", [index])
  const n = totals?.docs ?? 0
  const df = new Map(
    db
      .query<{ term: string; df: number }>("SELECT term, df FROM keyword_df WHERE index_name = $1 AND term = ANY($2)", [index, [...new Set(terms)]])
      .map((r) => [r.term, r.df])
  )
  const idfs = terms.map((t) => {
    const hits = df.get(t) ?? 0
    const idf = Math.log((n - hits + 0.5) / (hits + 0.5))
    return idf <= 0 ? 1e-6 : idf
  })
  return { terms, idfs, averageLength: n === 0 ? 1 : (totals?.tokens ?? 0) / n }
}

/**
 * The SQL of a BM25 search, given the query ($1 terms, $2 IDFs, $3 average length, $4 places)
 * and an optional condition on the rows (`t` is keyword_terms). Yields `key` and `relevance`,
 * best first, at most `$5`.
 */
export const bm25Sql = (index: IndexName, weights: ReadonlyArray<number>, where = "TRUE"): string => {
  const frequency = weights.map((w, i) => `${Number(w)} * t.tf[${i + 1}]`).join(" + ")
  return `
    SELECT t.key, sum(q.idf * f.f * ${K1 + 1} / (f.f + ${K1} * (${1 - B} + ${B} * t.tokens / $3::float8))) AS relevance
      FROM unnest($1::text[], $2::float8[]) AS q(term, idf)
      JOIN keyword_terms t ON t.index_name = '${index}' AND t.term = q.term AND t.place = ANY($4::text[])
      CROSS JOIN LATERAL (SELECT (${frequency})::float8 AS f) f
     WHERE ${where}
     GROUP BY t.key
     ORDER BY relevance DESC
     LIMIT $5`
}

/** The arguments `bm25Sql` takes, in order. */
export const bm25Args = (q: WeighedQuery, places: ReadonlyArray<string>, limit: number): unknown[] => [q.terms, q.idfs, q.averageLength, places, limit]

/** A memory's document in the `memories` index; `owner`: the person a private memory is private to. */
export const memoryDocument = (
  key: number,
  columns: ReadonlyArray<string>,
  project: string | null,
  live: boolean,
  category: string,
  owner: string | null = null
): IndexedDocument => ({ key, columns, place: placeToken({ project, live, owner }), category: categoryToken(category), extraTokens: 2 })
