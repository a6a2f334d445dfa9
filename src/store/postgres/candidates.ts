/**
 * Stage 1 inputs on PostgreSQL: the memories that match a query, with their raw relevance
 * signals, as the SQLite store's candidates.ts finds them: BM25 over the memories' text and
 * over learned cues (keyword-search.ts), scope, liveness and category filtered in the index.
 */
import type { LedgerConfig } from "../../config.js"
import type { MemoryState } from "../../projections/memory-state.js"
import { cueWeightAt } from "../../projections/cue-state.js"
import { candidateLimit, type KeywordCandidates, type Scope } from "../../retrieval/candidate.js"
import { combinePhrasings, type MatchRow } from "../../retrieval/phrasing-matches.js"
import type { DocumentFrequency } from "../../retrieval/coverage.js"
import { categoryToken, placeTokensOf } from "../../retrieval/place-tokens.js"
import { bm25Search, weighQuery, type WeighedQuery } from "./keyword-search.js"
import { liveByKeys, memoriesByKey } from "./memory-reads.js"
import type { SyncPg } from "./sync-client.js"
import type { Viewer } from "../../domain/viewer.js"

type CandidateRow = MatchRow & { readonly reach: number }

/** The `count` best keyword matches in scope for each phrasing: see the SQLite store's keywordCandidates. */
export const keywordCandidates = (
  db: SyncPg,
  phrasings: ReadonlyArray<string>,
  scope: Scope,
  limit: number,
  config: LedgerConfig,
  nowMs: number,
  count = candidateLimit(limit, config)
): KeywordCandidates => {
  const found = combinePhrasings(phrasings, count, (phrasing) => {
    const content = contentMatches(db, phrasing, scope, count, config)
    if (content === undefined) return undefined
    const cues = cueMatches(db, phrasing, scope, count, config, nowMs)
    return { content, cues: cues.rows, cueFloor: cues.floor }
  })
  // Each search reads its best `count` alone (keyword-search.ts): widening searches again.
  const all = candidateLimit(limit, config)
  const candidates: KeywordCandidates = Object.assign(found, {
    widen: () => (count >= all ? candidates : keywordCandidates(db, phrasings, scope, limit, config, nowMs, all))
  })
  return candidates
}

const WITH_FIELDS = (matches: string) => `
  SELECT f.key, f.relevance, f.reach, m.id, m.created_at, m.confidence, m.confirmations, e.worked, e.failed, e.anchor_ms
    FROM (${matches}) f JOIN memories m ON m.key = f.key LEFT JOIN evidence e ON e.memory_id = m.id
   ORDER BY f.relevance DESC`

/** Undefined when the phrasing holds no searchable word. */
const contentMatches = (db: SyncPg, phrasing: string, scope: Scope, count: number, config: LedgerConfig): CandidateRow[] | undefined => {
  const q = weighQuery(phrasing)
  if (q === undefined) return undefined
  return bm25Search<CandidateRow>(db, q, {
    index: "memories",
    weights: config.fieldWeights.slice(0, 5),
    places: placeTokensOf(scope.project, true, scope.viewer),
    count,
    ...(scope.category === undefined ? {} : { where: "t.category = $6", params: [categoryToken(scope.category)] }),
    around: WITH_FIELDS
  })
}

/** Learned cues' matches, each scaled by the cue's weight and `learnedCueWeight`. */
const cueMatches = (
  db: SyncPg,
  phrasing: string,
  scope: Scope,
  count: number,
  config: LedgerConfig,
  nowMs: number
): { rows: CandidateRow[]; floor: number } => {
  const q = weighQuery(phrasing)
  if (q === undefined) return { rows: [], floor: 0 }
  const all = bm25Search<Omit<CandidateRow, "key"> & { key: number | null; weight: number; cue_anchor_ms: number; category: string }>(db, q, {
    index: "cues",
    weights: [1, config.fieldWeights[4]!],
    places: placeTokensOf(scope.project, true),
    count,
    params: [scope.project, scope.viewer ?? null],
    around: (matches) => `
      SELECT m.key, f.relevance, f.reach, c.weight, c.anchor_ms AS cue_anchor_ms, m.id, m.created_at, m.confidence, m.confirmations, m.category,
             e.worked, e.failed, e.anchor_ms
        FROM (${matches}) f
        JOIN learned_cues c ON c.key = f.key
        LEFT JOIN memories m ON m.id = c.memory_id AND m.forgotten = 0 AND m.superseded_by IS NULL
                            AND (m.project IS NULL OR m.project IS NOT DISTINCT FROM $6)
                            AND (m.private_to IS NULL OR m.private_to IS NOT DISTINCT FROM $7)
        LEFT JOIN evidence e ON e.memory_id = m.id
       ORDER BY f.relevance DESC`
  })
  const floor = all.length >= count ? Math.min(...all.map((r) => r.relevance)) * config.learnedCueWeight : 0
  const rows = all
    .filter((r): r is typeof r & { key: number } => r.key !== null && (scope.category === undefined || r.category === scope.category))
    .map((r) => ({ ...r, relevance: r.relevance * config.learnedCueWeight * Math.min(1, cueWeightAt({ weight: r.weight, anchorMs: r.cue_anchor_ms }, nowMs, config.halfLifeDays)) }))
  return { rows, floor }
}

/** How many memories hold each stem, and how many memories there are. */
export const documentFrequency = (db: SyncPg): DocumentFrequency => (stems) => {
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
