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
 * A search reads each term's rows best first and stops when nothing left unread can rank
 * (bm25Sql, exactTop), so a query of words that most memories hold costs about what a query of
 * rare ones does.
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

/**
 * Rows are sent as one JSON array and expanded by PostgreSQL: one statement for many rows. Each
 * row's `impact` (the order a search reads a term's rows in) is computed here, against the
 * index's reference length (ref_avg).
 */
const TERMS_FROM_JSON = `INSERT INTO keyword_terms (index_name, term, place, category, key, tokens, tf, impact)
  SELECT r.index_name, r.term, r.place, r.category, r.key, r.tokens, r.tf,
         f.f * ${K1 + 1} / (f.f + ${K1} * (${1 - B} + ${B} * r.tokens / greatest(k.ref_avg, 1e-9)))
    FROM json_populate_recordset(NULL::keyword_terms, $1::json) r
    CROSS JOIN (SELECT coalesce(ref_avg, 1) AS ref_avg FROM keyword_totals WHERE index_name = $2) k
    CROSS JOIN LATERAL (SELECT sum(x)::float8 AS f FROM unnest(r.tf) AS x) f`

/** Rows per statement: large enough to spread a statement's cost, small enough for a modest message. */
const ROWS_PER_STATEMENT = 5_000

/**
 * Adds documents' terms (one at a time on appends, thousands at a time in a rebuild), and their
 * share of the statistics. Documents going into an empty index set its reference length to their
 * own average: a rebuild's is the collection's.
 */
export const indexDocuments = (db: SyncPg, index: IndexName, docs: ReadonlyArray<IndexedDocument>): void => {
  if (docs.length === 0) return
  const indexed = docs.map((doc) => ({ doc, ...termsOf(doc) }))
  const tokens = indexed.reduce((sum, d) => sum + d.tokens, 0)
  db.run("UPDATE keyword_totals SET ref_avg = $2 WHERE index_name = $1 AND docs = 0", [index, Math.max(1, tokens / docs.length)])
  const df = new Map<string, number>()
  let rows: unknown[] = []
  for (const { doc, counts, tokens: length } of indexed) {
    for (const [term, tf] of counts) {
      df.set(term, (df.get(term) ?? 0) + 1)
      rows.push({ index_name: index, term, place: doc.place, category: doc.category, key: doc.key, tokens: length, tf })
    }
    if (rows.length >= ROWS_PER_STATEMENT) {
      db.run(TERMS_FROM_JSON, [JSON.stringify(rows), index])
      rows = []
    }
  }
  if (rows.length > 0) db.run(TERMS_FROM_JSON, [JSON.stringify(rows), index])
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
 * The SQL of a BM25 search, given the query's terms ($1), the places searched ($2), the number
 * wanted ($3), how many of each term's rows to read ($4), and an optional condition on the rows
 * (`t` is keyword_terms). Each term's IDF is FTS5's (log((N - n + 0.5) / (n + 0.5)), at least
 * 1e-6), from the statistics kept beside the index, in the same statement.
 *
 * A word in most memories would have every one of its rows scored. Instead each term's rows in
 * each place are read best first by `impact`, at most $4 of them; the documents read are scored
 * exactly; and `bound` says how high a document not read could score: its impact for each term
 * is at most the last one read from that term's rows, when they were not all read. Impacts are
 * a term's BM25 share with every column weighted 1 and the index's reference length, so a
 * document's share now is at most its impact times `slack` (a larger weight, a longer average
 * document). `exactTop` widens the reading until no document left unread can enter the answer.
 *
 * Yields `key`, `relevance` and `bound`, best first.
 */
export const bm25Sql = (index: IndexName, weights: ReadonlyArray<number>, where = "TRUE"): string => {
  const frequency = weights.map((w, i) => `${Number(w)} * t.tf[${i + 1}]`).join(" + ")
  const weightSlack = Math.max(1, ...weights.map(Number))
  return `
    WITH totals AS (SELECT docs::float8 AS n, CASE WHEN docs = 0 THEN 1 ELSE tokens::float8 / docs END AS avg, coalesce(ref_avg, 1) AS ref_avg
                      FROM keyword_totals WHERE index_name = '${index}'),
         q AS (SELECT w.term, CASE WHEN x.idf <= 0 THEN 1e-6 ELSE x.idf END AS idf
                 FROM unnest($1::text[]) AS w(term)
                 CROSS JOIN totals
                 LEFT JOIN keyword_df d ON d.index_name = '${index}' AND d.term = w.term
                 CROSS JOIN LATERAL (SELECT ln((totals.n - coalesce(d.df, 0) + 0.5) / (coalesce(d.df, 0) + 0.5)) AS idf) x),
         read AS (SELECT r.* FROM (SELECT DISTINCT term FROM q) u CROSS JOIN unnest($2::text[]) AS p(place)
                    CROSS JOIN LATERAL (SELECT t.term, t.place, t.key, t.impact FROM keyword_terms t
                                         WHERE t.index_name = '${index}' AND t.term = u.term AND t.place = p.place AND ${where}
                                         ORDER BY t.impact DESC LIMIT $4) r),
         unread AS (SELECT term, place, min(impact) AS last FROM read GROUP BY term, place HAVING count(*) >= $4),
         bound AS (SELECT coalesce(max(s), 0) * ${weightSlack} * (SELECT greatest(1, avg / ref_avg) FROM totals) AS bound
                     FROM (SELECT u.place, sum(q.idf * u.last) AS s FROM unread u JOIN q USING (term) GROUP BY u.place) b),
         scored AS (SELECT c.key, sum(q.idf * f.f * ${K1 + 1} / (f.f + ${K1} * (${1 - B} + ${B} * t.tokens / (SELECT avg FROM totals)))) AS relevance
                      FROM (SELECT DISTINCT key, place FROM read) c
                      CROSS JOIN q
                      -- One probe of the primary key for each document read and each term: the
                      -- LIMIT keeps the planner from joining every row of the terms instead.
                      CROSS JOIN LATERAL (SELECT t.tokens, t.tf FROM keyword_terms t
                                           WHERE t.index_name = '${index}' AND t.term = q.term AND t.place = c.place AND t.key = c.key LIMIT 1) t
                      CROSS JOIN LATERAL (SELECT (${frequency})::float8 AS f) f
                     GROUP BY c.key
                     ORDER BY relevance DESC
                     LIMIT $3)
    SELECT s.key, s.relevance, (SELECT bound FROM bound) AS bound FROM scored s`
}

/** The arguments `bm25Sql` takes, in order, reading `perTerm` rows of each term in each place. */
export const bm25Args = (q: WeighedQuery, places: ReadonlyArray<string>, limit: number, perTerm: number): unknown[] => [q.terms, places, limit, perTerm]

/** Rows of each term read at first: the answer's length, so a query of rare words reads all of theirs at once. */
const FIRST_READ = 100
/** Each wider reading reads this many times more. */
const WIDER = 8

/**
 * The `count` best rows of a statement built on bm25Sql (`run` is given how many of each term's
 * rows to read), read wider until they are the best of all: until every row was read (`bound`
 * 0) or the last row wanted scores at least `bound`.
 */
export const exactTop = <Row extends { readonly relevance: number; readonly bound: number }>(
  count: number,
  run: (perTerm: number) => Row[]
): Row[] => {
  for (let perTerm = Math.max(count, FIRST_READ); ; perTerm *= WIDER) {
    const rows = run(perTerm)
    const bound = rows[0]?.bound ?? 0
    if (bound === 0 || (rows.length >= count && rows[count - 1]!.relevance >= bound)) return rows
  }
}

/** A memory's document in the `memories` index; `owner`: the person a private memory is private to. */
export const memoryDocument = (
  key: number,
  columns: ReadonlyArray<string>,
  project: string | null,
  live: boolean,
  category: string,
  owner: string | null = null
): IndexedDocument => ({ key, columns, place: placeToken({ project, live, owner }), category: categoryToken(category), extraTokens: 2 })
