/**
 * BM25 search over PostgreSQL's keyword index (keyword-index.ts): the query's terms, the index's
 * statistics read first, and the search's SQL. A query of words with many rows reads each
 * word's best rows first and stops there when nothing left unread can rank (bm25Sql, exactTop).
 */
import { indexTokens } from "../../retrieval/stems.js"
import { queryWords } from "../../retrieval/fts-query.js"
import { B, frequenciesOf, K1, type IndexName } from "./keyword-index.js"
import type { SyncPg } from "./sync-client.js"

/** A query's terms: the tokens of its words, stop words left out, a term once per word it came from. */
export interface WeighedQuery {
  readonly terms: string[]
}

export const weighQuery = (text: string): WeighedQuery | undefined => {
  const terms = queryWords(text).flatMap((word) => indexTokens(word))
  return terms.length === 0 ? undefined : { terms }
}

/** What a search needs of the index's statistics, read in the search's snapshot. */
export interface QueryStatistics {
  /** Each term's IDF, as FTS5 computes it: log((N - n + 0.5) / (n + 0.5)), at least 1e-6. */
  readonly idf: number[]
  /** The average document length now, and the one impacts were computed with. */
  readonly avg: number
  readonly refAvg: number
  /** How many rows the query's terms have, in every place. */
  readonly rows: number
}

/** An index's document frequency of some terms (0 for one no document holds), and its totals. */
export interface IndexStatistics {
  readonly df: ReadonlyMap<string, number>
  readonly docs: number
  readonly tokens: number
  readonly refAvg: number
}

/**
 * Both indexes' statistics for `terms`, in one statement before the searches: the search's own
 * SQL then stays simple enough to plan in a moment, and a phrasing searched in both indexes
 * waits for one answer, not two.
 */
export const readStatistics = (db: SyncPg, terms: ReadonlyArray<string>): Record<IndexName, IndexStatistics> => {
  const rows = db.query<{ index_name: IndexName; term: string | null; n: number; tokens: number | null; ref_avg: number | null }>(
    `SELECT index_name, term, df AS n, NULL::bigint AS tokens, NULL::float8 AS ref_avg FROM keyword_df WHERE index_name IN ('memories', 'cues') AND term = ANY($1)
     UNION ALL SELECT index_name, NULL, docs, tokens, ref_avg FROM keyword_totals`,
    [terms]
  )
  const read = (index: IndexName): IndexStatistics => {
    const df = new Map<string, number>(terms.map((t) => [t, 0]))
    let totals = { docs: 0, tokens: 0, refAvg: 1 }
    for (const r of rows) {
      if (r.index_name !== index) continue
      if (r.term !== null) df.set(r.term, r.n)
      else totals = { docs: r.n, tokens: r.tokens ?? 0, refAvg: r.ref_avg ?? 1 }
    }
    return { df, ...totals }
  }
  return { memories: read("memories"), cues: read("cues") }
}

/** What a search of `q` needs of an index's statistics (which hold its terms). */
export const statisticsOf = (q: WeighedQuery, { df, docs, tokens, refAvg }: IndexStatistics): QueryStatistics => {
  const idf = q.terms.map((term) => {
    const n = df.get(term) ?? 0
    const value = Math.log((docs - n + 0.5) / (n + 0.5))
    return value <= 0 ? 1e-6 : value
  })
  const rowsOfTerms = [...new Set(q.terms)].reduce((sum, term) => sum + (df.get(term) ?? 0), 0)
  return { idf, avg: docs === 0 ? 1 : tokens / docs, refAvg, rows: rowsOfTerms }
}

export const queryStatistics = (db: SyncPg, index: IndexName, q: WeighedQuery): QueryStatistics => statisticsOf(q, readStatistics(db, q.terms)[index])

/** How a search reads each term's rows: all of them, or at most this many of each, best first. */
export type Reading = "all" | number

/**
 * The SQL of a BM25 search, given the query's terms ($1), the places searched ($2), the number
 * wanted ($3), each term's IDF ($4), the average document length ($5), and an optional
 * condition on the rows (`t` is keyword_terms; a caller's own parameters start at $6). Yields
 * `key`, `relevance` and `reach`, best first, equally relevant rows by key: so the best 40 are
 * the first 40 of the best 200.
 *
 * Read "all", every row of the `terms` terms in those places is scored, and `reach` is 0. Read
 * best first, each term's rows in each place are read in order of `impact`, at most `reading`
 * of them; the documents read are scored exactly; and `reach` says how high a document not read
 * could score, before slack (exactTop): its impact for each term is at most the last one read
 * from that term's rows, when they were not all read.
 */
export const bm25Sql = (index: IndexName, weights: ReadonlyArray<number>, where: string, reading: Reading, terms: number): string => {
  const frequency = frequenciesOf("t", weights.length).map((tf, i) => `${Number(weights[i])} * ${tf}`).join(" + ")
  // ${B}::float8: as a numeric constant it made every row's length a numeric product first
  // (the same value, exactly: a length times 3/4), a sixth of the statement's time.
  const shareOf = (idf: string) => `${idf} * f.f * ${K1 + 1} / (f.f + ${K1} * (${1 - B} + ${B}::float8 * t.tokens / $5::float8))`
  const q = "unnest($1::text[], $4::float8[]) AS q(term, idf)"
  const share = shareOf("q.idf")
  if (reading === "all" && terms <= JOINED_TERMS_MAX) return everyRowSql(index, frequency, shareOf, where, terms)
  if (reading === "all") {
    return `
    SELECT t.key, sum(${share}) AS relevance, 0::float8 AS reach
      FROM ${q}
      JOIN keyword_terms t ON t.index_name = '${index}' AND t.term = q.term AND t.place = ANY($2::text[])
      CROSS JOIN LATERAL (SELECT (${frequency})::float8 AS f) f
     WHERE ${where}
     GROUP BY t.key
     ORDER BY relevance DESC, t.key
     LIMIT $3`
  }
  const perTerm = Math.floor(reading)
  return `
    WITH q AS (SELECT * FROM ${q}),
         read AS (SELECT r.* FROM (SELECT DISTINCT term FROM q) u CROSS JOIN unnest($2::text[]) AS p(place)
                    CROSS JOIN LATERAL (SELECT t.term, t.place, t.key, t.impact FROM keyword_terms t
                                         WHERE t.index_name = '${index}' AND t.term = u.term AND t.place = p.place AND ${where}
                                         ORDER BY t.impact DESC LIMIT ${perTerm}) r),
         unread AS (SELECT term, place, min(impact) AS last FROM read GROUP BY term, place HAVING count(*) >= ${perTerm}),
         reach AS (SELECT coalesce(max(s), 0) AS reach FROM (SELECT u.place, sum(q.idf * u.last) AS s FROM unread u JOIN q USING (term) GROUP BY u.place) b),
         scored AS (SELECT c.key, sum(${share}) AS relevance
                      FROM (SELECT DISTINCT key, place FROM read) c
                      CROSS JOIN q
                      -- One probe of the primary key for each document read and each term: the
                      -- LIMIT keeps the planner from joining every row of the terms instead.
                      CROSS JOIN LATERAL (SELECT t.tokens, ${frequenciesOf("t", weights.length).join(", ")} FROM keyword_terms t
                                           WHERE t.index_name = '${index}' AND t.term = q.term AND t.place = c.place AND t.key = c.key LIMIT 1) t
                      CROSS JOIN LATERAL (SELECT (${frequency})::float8 AS f) f
                     GROUP BY c.key
                     ORDER BY relevance DESC, c.key
                     LIMIT $3)
    SELECT s.key, s.relevance, (SELECT reach FROM reach) AS reach FROM scored s`
}

/**
 * The most terms whose rows are summed by joining them (everyRowSql): joining every query's
 * terms made the bench's longer queries slower (an eight-term join took 21 ms to plan), and
 * three joined were no faster than two.
 */
export const JOINED_TERMS_MAX = 2

/**
 * Every row of each term, scored apart, the terms' shares of a document summed by joining them
 * on its key: each term's rows hold a document once, so a full join lines them up, where
 * grouping every row by key cost a third more of the server's time (two common words: 4,000 to
 * 8,000 rows). A document's shares add up in the terms' order, as the sum over them does.
 */
const everyRowSql = (index: IndexName, frequency: string, shareOf: (idf: string) => string, where: string, terms: number): string => {
  const term = (n: number) => `
      (SELECT t.key, ${shareOf(`($4::float8[])[${n}]`)} AS s
         FROM keyword_terms t CROSS JOIN LATERAL (SELECT (${frequency})::float8 AS f) f
        WHERE t.index_name = '${index}' AND t.term = ($1::text[])[${n}] AND t.place = ANY($2::text[]) AND ${where}) t${n}`
  const numbers = Array.from({ length: Math.max(1, terms) }, (_, i) => i + 1)
  return `
    SELECT key, ${numbers.map((n) => `coalesce(t${n}.s, 0)`).join(" + ")} AS relevance, 0::float8 AS reach
      FROM ${term(1)}${numbers.slice(1).map((n) => `\n      FULL JOIN ${term(n)} USING (key)`).join("")}
     ORDER BY relevance DESC, key
     LIMIT $3`
}

/** The arguments `bm25Sql` takes, in order. */
export const bm25Args = (q: WeighedQuery, stats: QueryStatistics, places: ReadonlyArray<string>, limit: number): unknown[] => [
  q.terms,
  places,
  limit,
  stats.idf,
  stats.avg
]

/**
 * Below this many rows of the query's terms (in every place), reading them all costs less than
 * reading the best first: each document read best first costs one probe of the index per term,
 * some ten times what a row costs read in order.
 */
const BEST_FIRST_FROM = 25_000

/**
 * Whether reading best first can settle a search: only when at most one of its terms may have
 * rows left unread (`count` or more in some place; a term in fewer documents is read whole).
 * With two or more, the bound is the sum of each one's last impact read, and `count` documents
 * would have to hold all of them among each one's best `count` to reach it: on the bench's
 * 100,000 memories, none of the queries read best first with two such terms settled, and each
 * cost its search 3 to 9 ms before every row was read anyway.
 */
export const canSettleBestFirst = (q: WeighedQuery, statistics: IndexStatistics, count: number): boolean =>
  [...new Set(q.terms)].filter((term) => (statistics.df.get(term) ?? 0) >= count).length <= 1

/**
 * The `count` best rows of a statement built on bm25Sql, `run` given how to read. When the
 * query's terms have many rows, they are read best first, `count` of each; that answer stands
 * when every row was read (`reach` 0) or when its last row scores at least how high a row
 * left unread could: `reach` times the slack of impacts, which are a term's BM25 share with
 * every column weighted 1 and the index's reference length, so that a share now is at most
 * its impact times the largest weight (when over 1) and times the average length over the
 * reference one (when over 1). Otherwise every row is read. Either way the answer is the best
 * `count` of all.
 */
export const exactTop = <Row extends { readonly relevance: number; readonly reach: number }>(
  count: number,
  stats: QueryStatistics,
  weights: ReadonlyArray<number>,
  run: (reading: Reading) => Row[],
  bestFirstFrom = BEST_FIRST_FROM
): Row[] => {
  if (stats.rows >= bestFirstFrom) {
    const rows = run(count)
    const slack = Math.max(1, ...weights) * Math.max(1, stats.avg / stats.refAvg)
    const reach = (rows[0]?.reach ?? 0) * slack
    if (reach === 0 || (rows.length >= count && rows[count - 1]!.relevance >= reach)) return rows
  }
  return run("all")
}

/** A BM25 search: over which index, with which weights, where, for how many rows. */
export interface Bm25Search {
  readonly index: IndexName
  readonly weights: ReadonlyArray<number>
  readonly places: ReadonlyArray<string>
  readonly count: number
  /**
   * How many rows to answer when every row is read (at least `count`): reading every row costs
   * the same whatever the limit, so a caller that may want more later asks for them now.
   */
  readonly read?: number
  /** A condition on the rows (`t` is keyword_terms); `params` are its and `around`'s, from $6. */
  readonly where?: string
  readonly params?: ReadonlyArray<unknown>
  /** The statement around the search's rows (`matches`): it keeps `relevance` and `reach`, best first. */
  readonly around?: (matches: string) => string
}

/** The best `upTo` rows of a search (all of them when fewer match): `count`, or `read` when every row was read. */
export interface Bm25Rows<Row> {
  readonly rows: Row[]
  readonly upTo: number
}

/** The best rows of a BM25 search, exactly: the statistics, then the reading exactTop settles on. */
export const bm25Best = <Row extends { readonly relevance: number; readonly reach: number }>(
  db: SyncPg,
  q: WeighedQuery,
  search: Bm25Search,
  statistics: IndexStatistics = readStatistics(db, q.terms)[search.index]
): Bm25Rows<Row> => {
  const stats = statisticsOf(q, statistics)
  // No row holds any of the words (often so of learned cues): nothing to search.
  if (stats.rows === 0) return { rows: [], upTo: search.count }
  const around = search.around ?? ((matches: string) => matches)
  let upTo = search.count
  const rows = exactTop(search.count, stats, search.weights, (reading) => {
    upTo = reading === "all" ? Math.max(search.count, search.read ?? 0) : search.count
    const args = [...bm25Args(q, stats, search.places, upTo), ...(search.params ?? [])]
    return db.query<Row>(around(bm25Sql(search.index, search.weights, search.where ?? "TRUE", reading, q.terms.length)), args)
  }, canSettleBestFirst(q, statistics, search.count) ? BEST_FIRST_FROM : Infinity)
  return { rows, upTo }
}

/** The `count` best rows of a BM25 search, exactly. */
export const bm25Search = <Row extends { readonly relevance: number; readonly reach: number }>(db: SyncPg, q: WeighedQuery, search: Bm25Search): Row[] =>
  bm25Best<Row>(db, q, { ...search, read: search.count }).rows
