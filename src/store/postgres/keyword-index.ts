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
 * Searching it is keyword-search.ts's.
 *
 * Two indexes share the tables: `memories` (content, written cues, tags, category, code words)
 * and `cues` (a learned cue's text and its code words).
 *
 * Where FTS5 reads a word that is several tokens (`snake_case`) as a phrase, this reads its
 * tokens as separate terms: the only place the two can rank differently.
 */
import { categoryToken, placeToken } from "../../retrieval/place-tokens.js"
import { indexTokens } from "../../retrieval/stems.js"
import type { SyncPg } from "./sync-client.js"

export type IndexName = "memories" | "cues"

/** FTS5's BM25 constants. */
export const K1 = 1.2
export const B = 0.75

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

/** A row's term frequency in each weighted column: five for the memories' index, the first two for the cues'. */
const FREQUENCY_COLUMNS = ["tf1", "tf2", "tf3", "tf4", "tf5"]

/** Each column's term frequency of a row (`t.tf1`...), as many as the index has weighted columns. */
export const frequenciesOf = (row: string, columns = FREQUENCY_COLUMNS.length): string[] => FREQUENCY_COLUMNS.slice(0, columns).map((c) => `${row}.${c}`)

/** A row's impact: its term's BM25 share with every column weighted 1, against the reference length `ref`. */
const impactOf = (row: string, ref: string): string =>
  `(SELECT f * ${K1 + 1} / (f + ${K1} * (${1 - B} + ${B} * ${row}.tokens / greatest(${ref}, 1e-9))) FROM (SELECT (${frequenciesOf(row).join(" + ")})::float8 AS f) s)`

/**
 * Rows are sent as one JSON array and expanded by PostgreSQL: one statement for many rows. Each
 * row's `impact` (the order a search reads a term's rows in) is computed here, against the
 * index's reference length (ref_avg).
 */
const TERMS_FROM_JSON = `INSERT INTO keyword_terms (index_name, term, place, category, key, tokens, ${FREQUENCY_COLUMNS.join(", ")}, impact)
  SELECT r.index_name, r.term, r.place, r.category, r.key, r.tokens, ${frequenciesOf("r").join(", ")}, ${impactOf("r", "k.ref_avg")}
    FROM json_populate_recordset(NULL::keyword_terms, $1::json) r
    CROSS JOIN (SELECT coalesce(ref_avg, 1) AS ref_avg FROM keyword_totals WHERE index_name = $2) k`

/**
 * While an index is small, its reference length follows the average when they drift a quarter
 * apart, and every impact is computed again: a store that grows from empty would otherwise
 * keep the length of its first documents, and its searches' bounds would slacken for good.
 */
const SMALL_INDEX = 2_000
const FOLLOW_AVERAGE = `WITH moved AS (
    UPDATE keyword_totals SET ref_avg = tokens::float8 / docs
     WHERE index_name = $1 AND docs BETWEEN 1 AND ${SMALL_INDEX} AND abs(tokens::float8 / docs / coalesce(ref_avg, 1) - 1) > 0.25
    RETURNING ref_avg)
  UPDATE keyword_terms t SET impact = ${impactOf("t", "moved.ref_avg")} FROM moved WHERE t.index_name = $1`

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
      const row: Record<string, unknown> = { index_name: index, term, place: doc.place, category: doc.category, key: doc.key, tokens: length }
      FREQUENCY_COLUMNS.forEach((column, i) => (row[column] = tf[i] ?? 0))
      rows.push(row)
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
  db.run(FOLLOW_AVERAGE, [index])
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

/** A memory's document in the `memories` index; `owner`: the person a private memory is private to. */
export const memoryDocument = (
  key: number,
  columns: ReadonlyArray<string>,
  project: string | null,
  live: boolean,
  category: string,
  owner: string | null = null
): IndexedDocument => ({ key, columns, place: placeToken({ project, live, owner }), category: categoryToken(category), extraTokens: 2 })
