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

/** A document's terms with their count in each column, and its length as FTS5 counts it. */
const termsOf = (doc: IndexedDocument): { counts: Map<string, number[]>; tokens: number } => {
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
  return { counts, tokens }
}

/** Rows are sent as one JSON array and expanded by PostgreSQL: one statement for many rows. */
const TERMS_FROM_JSON = `INSERT INTO keyword_terms (index_name, term, place, category, key, tokens, tf)
  SELECT index_name, term, place, category, key, tokens, tf FROM json_populate_recordset(NULL::keyword_terms, $1::json)`

/** Rows per statement: large enough to spread a statement's cost, small enough for a modest message. */
const ROWS_PER_STATEMENT = 5_000

/** Adds documents' terms (one at a time on appends, thousands at a time in a rebuild), and their share of the statistics. */
export const indexDocuments = (db: SyncPg, index: IndexName, docs: ReadonlyArray<IndexedDocument>): void => {
  const df = new Map<string, number>()
  let tokens = 0
  let rows: unknown[] = []
  for (const doc of docs) {
    const terms = termsOf(doc)
    tokens += terms.tokens
    for (const [term, tf] of terms.counts) {
      df.set(term, (df.get(term) ?? 0) + 1)
      rows.push({ index_name: index, term, place: doc.place, category: doc.category, key: doc.key, tokens: terms.tokens, tf })
    }
    if (rows.length >= ROWS_PER_STATEMENT) {
      db.run(TERMS_FROM_JSON, [JSON.stringify(rows)])
      rows = []
    }
  }
  if (rows.length > 0) db.run(TERMS_FROM_JSON, [JSON.stringify(rows)])
  if (docs.length === 0) return
  db.run(
    `INSERT INTO keyword_df (index_name, term, df) SELECT $1, t.term, t.n FROM unnest($2::text[], $3::int[]) AS t(term, n)
       ON CONFLICT (index_name, term) DO UPDATE SET df = keyword_df.df + excluded.df`,
    [index, [...df.keys()], [...df.values()]]
  )
  db.run("UPDATE keyword_totals SET docs = docs + $2, tokens = tokens + $3 WHERE index_name = $1", [index, docs.length, tokens])
}

export const indexDocument = (db: SyncPg, index: IndexName, doc: IndexedDocument): void => indexDocuments(db, index, [doc])

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

/** A query's terms: the tokens of its words, stop words left out, a term once per word it came from. */
export interface WeighedQuery {
  readonly terms: string[]
}

export const weighQuery = (text: string): WeighedQuery | undefined => {
  const terms = queryWords(text).flatMap((word) => indexTokens(word))
  return terms.length === 0 ? undefined : { terms }
}

/**
 * The SQL of a BM25 search, given the query's terms ($1), the places searched ($2), the
 * number wanted ($3) and an optional condition on the rows (`t` is keyword_terms). Each term's
 * IDF is FTS5's (log((N - n + 0.5) / (n + 0.5)), at least 1e-6), from the statistics kept
 * beside the index, in the same statement. Yields `key` and `relevance`, best first.
 */
export const bm25Sql = (index: IndexName, weights: ReadonlyArray<number>, where = "TRUE"): string => {
  const frequency = weights.map((w, i) => `${Number(w)} * t.tf[${i + 1}]`).join(" + ")
  return `
    WITH totals AS (SELECT docs::float8 AS n, CASE WHEN docs = 0 THEN 1 ELSE tokens::float8 / docs END AS avg FROM keyword_totals WHERE index_name = '${index}'),
         q AS (SELECT w.term, CASE WHEN x.idf <= 0 THEN 1e-6 ELSE x.idf END AS idf
                 FROM unnest($1::text[]) AS w(term)
                 CROSS JOIN totals
                 LEFT JOIN keyword_df d ON d.index_name = '${index}' AND d.term = w.term
                 CROSS JOIN LATERAL (SELECT ln((totals.n - coalesce(d.df, 0) + 0.5) / (coalesce(d.df, 0) + 0.5)) AS idf) x)
    SELECT t.key, sum(q.idf * f.f * ${K1 + 1} / (f.f + ${K1} * (${1 - B} + ${B} * t.tokens / (SELECT avg FROM totals)))) AS relevance
      FROM q
      JOIN keyword_terms t ON t.index_name = '${index}' AND t.term = q.term AND t.place = ANY($2::text[])
      CROSS JOIN LATERAL (SELECT (${frequency})::float8 AS f) f
     WHERE ${where}
     GROUP BY t.key
     ORDER BY relevance DESC
     LIMIT $3`
}

/** The arguments `bm25Sql` takes, in order. */
export const bm25Args = (q: WeighedQuery, places: ReadonlyArray<string>, limit: number): unknown[] => [q.terms, places, limit]

/** A memory's document in the `memories` index; `owner`: the person a private memory is private to. */
export const memoryDocument = (
  key: number,
  columns: ReadonlyArray<string>,
  project: string | null,
  live: boolean,
  category: string,
  owner: string | null = null
): IndexedDocument => ({ key, columns, place: placeToken({ project, live, owner }), category: categoryToken(category), extraTokens: 2 })
