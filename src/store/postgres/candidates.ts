/**
 * Stage 1 inputs on PostgreSQL: the memories that match a query, with their raw relevance
 * signals, as the SQLite store's candidates.ts finds them: BM25 over the memories' text and
 * over learned cues (keyword-search.ts), scope, liveness and category filtered in the index.
 */
import type { LedgerConfig } from "../../config.js"
import type { MemoryState } from "../../projections/memory-state.js"
import { candidateLimit, type KeywordCandidates, type Scope } from "../../retrieval/candidate.js"
import type { VectorCandidateReads } from "../vector-reads.js"
import { pgVectorSearch } from "./vector-tables.js"
import { learnedCuesByKey } from "./projections.js"
import { combinePhrasings } from "../../retrieval/phrasing-matches.js"
import type { DocumentFrequency } from "../../retrieval/coverage.js"
import { categoryToken, placeTokensOf } from "../../retrieval/place-tokens.js"
import { stemsOf } from "../../retrieval/stems.js"
import { matchesAt, readPhrasing } from "./keyword-matches.js"
import { bm25Search, readStatistics, weighQuery, type WeighedQuery } from "./keyword-search.js"
import type { ReadMemo } from "./read-memo.js"
import { liveByKeys, liveInScope, memoriesByKey } from "./memory-reads.js"
import type { SyncPg } from "./sync-client.js"
import type { Viewer } from "../../domain/viewer.js"

/**
 * The `count` best keyword matches in scope for each phrasing: see the SQLite store's
 * keywordCandidates. Each phrasing is searched once, for as many rows as widening asks for
 * when the search reads every row anyway (keyword-matches.ts).
 */
export const keywordCandidates = (
  db: SyncPg,
  memo: ReadMemo,
  phrasings: ReadonlyArray<string>,
  scope: Scope,
  limit: number,
  config: LedgerConfig,
  nowMs: number,
  count = candidateLimit(limit, config)
): KeywordCandidates => {
  const read = Math.max(count, candidateLimit(limit, config))
  const reads = new Map(
    phrasings.map((p) => {
      const q = weighQuery(p)
      if (q === undefined) return [p, undefined] as const
      // The phrasing's stems too: the coverage stage asks their frequencies next (documentFrequency).
      const statistics = readStatistics(db, [...new Set([...q.terms, ...stemsOf(p)])])
      memo.keepFrequencies(statistics.memories.df, statistics.memories.docs)
      return [p, readPhrasing(db, q, statistics, scope, count, read, config)] as const
    })
  )
  const candidatesOf = (n: number): KeywordCandidates => {
    const found = combinePhrasings(phrasings, n, (p) => {
      const r = reads.get(p)
      return r === undefined ? undefined : matchesAt(db, r, n, scope, config, nowMs)
    })
    const candidates: KeywordCandidates = Object.assign(found, { widen: () => (n >= read ? candidates : candidatesOf(read)) })
    return candidates
  }
  return candidatesOf(count)
}

/** What the shared vector candidates (store/vector-reads.ts) read here: vectors, scope, learned cues. */
export const vectorCandidateReads = (db: SyncPg): VectorCandidateReads => ({
  search: pgVectorSearch(db),
  inScope: (keys, s) => liveInScope(db, keys, s),
  learnedCues: (keys) => learnedCuesByKey(db, keys)
})

/** How many memories hold each stem, and how many memories there are. */
export const documentFrequency = (db: SyncPg, memo: ReadMemo): DocumentFrequency => (stems) => {
  const kept = memo.frequenciesOf(stems)
  if (kept !== undefined) return kept
  const df = new Map<string, number>(stems.map((s) => [s, 0]))
  // Every memory, live or not, is one document of the index: its count is the memories' count.
  const rows = db.query<{ term: string | null; df: number }>(
    `SELECT term, df FROM keyword_df WHERE index_name = 'memories' AND term = ANY($1)
     UNION ALL SELECT NULL, docs FROM keyword_totals WHERE index_name = 'memories'`,
    [stems]
  )
  let total = 0
  for (const r of rows) {
    if (r.term === null) total = r.df
    else df.set(r.term, r.df)
  }
  return { total, df }
}

const OUTSIDE_LISTED = { dead: 50, otherCategory: 10, otherScope: 10 } as const
const EVEN = [1, 1, 1, 1, 1]

/** Keyword matches that are not candidates (dead, another category, another scope), for `why`. */
export const keywordMatchesOutside = (db: SyncPg, query: string, scope: Scope): MemoryState[] => {
  const q = weighQuery(query)
  if (q === undefined) return []
  const live = placeTokensOf(scope.project, true, scope.viewer)
  const dead = placeTokensOf(scope.project, false, scope.viewer)
  const keys = [
    ...bestKeys(db, q, dead, OUTSIDE_LISTED.dead, scope.category),
    ...(scope.category === undefined ? [] : newestKeys(db, q, "place = ANY($2) AND category <> $4", [[...live, ...dead], OUTSIDE_LISTED.otherCategory, categoryToken(scope.category)])),
    ...newestKeys(db, q, "NOT (place = ANY($2))", [[...live, ...dead], OUTSIDE_LISTED.otherScope])
  ]
  const rows = memoriesByKey(db, keys)
  return keys.flatMap((k) => rows.get(k) ?? [])
}

/** The best matches in these places (of this category, when given), by BM25 with every column weighted alike. */
const bestKeys = (db: SyncPg, q: WeighedQuery, places: ReadonlyArray<string>, max: number, category?: string): number[] => {
  return bm25Search<{ key: number; relevance: number; reach: number }>(db, q, {
    index: "memories",
    weights: EVEN,
    places,
    count: max,
    ...(category === undefined ? {} : { where: "t.category = $6", params: [categoryToken(category)] })
  }).map((r) => r.key)
}

const newestKeys = (db: SyncPg, q: WeighedQuery, where: string, args: ReadonlyArray<unknown>): number[] =>
  db
    .query<{ key: number }>(
      `SELECT DISTINCT key FROM keyword_terms WHERE index_name = 'memories' AND term = ANY($1) AND ${where} ORDER BY key DESC LIMIT $3`,
      [q.terms, ...args]
    )
    .map((r) => r.key)

/** The `count` best keyword matches among live memories of the project and global ones that `viewer` sees. */
export const keywordNeighbours = (db: SyncPg, content: string, project: string | null, count: number, viewer: Viewer = null): MemoryState[] => {
  const q = weighQuery(content)
  if (q === undefined) return []
  const keys = bestKeys(db, q, placeTokensOf(project, true, viewer), count)
  const byKey = new Map(liveByKeys(db, keys, project, viewer).map((m) => [m.key, m]))
  return keys.flatMap((k) => byKey.get(k) ?? [])
}
