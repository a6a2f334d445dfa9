/**
 * Stage 1 inputs: the memories that match a query, with their raw relevance signals. Scope,
 * liveness and category are filtered inside the indexes (full-text and vector), so that a large
 * store of other projects' memories can never crowd the current project's out of the list.
 */
import type { LedgerConfig } from "../../../config.js"
import { loadEvidenceOf } from "../projections/evidence.js"
import type { EvidenceSums } from "../../../projections/evidence-state.js"
import { MEMORY_COLUMNS, rowToMemory, type MemoryRow } from "../projections/memories.js"
import type { MemoryState } from "../../../projections/memory-state.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { sqliteVectorSearch } from "../projections/vector-search.js"
import { addVectorCandidates as addVectorsShared } from "../../vector-reads.js"
import { inPlaces, inPlacesOtherCategory, outsidePlaces, placeTokensOf } from "../projections/fts-scope.js"
import { ftsMatchExpression } from "../../../retrieval/fts-query.js"
import { cueWeightAt } from "../../../projections/cue-state.js"
import type { RankFields } from "../../../retrieval/rank.js"
import type { DocumentFrequency } from "../../../retrieval/coverage.js"
import { candidateLimit, type Candidate, type KeywordCandidates, type QueryVector, type Scope } from "../../../retrieval/candidate.js"
import { combinePhrasings } from "../../../retrieval/phrasing-matches.js"

/**
 * The `count` best keyword matches in scope for each phrasing (by default `candidateLimit`),
 * from the memories' own text (content, written cues, tags, category, code words) and from
 * their learned cues. A memory's keyword signal is its best match: BM25 of its text, or of a
 * learned cue times `learnedCueWeight` and the cue's decayed weight (at most 1). With several
 * phrasings, each phrasing's signals are scaled to its best and the best phrasing counts.
 * Among equally relevant matches at the cut, which are kept is SQLite's choice.
 */
export const keywordCandidates = (
  db: Db,
  phrasings: ReadonlyArray<string>,
  scope: Scope,
  limit: number,
  config: LedgerConfig,
  nowMs: number,
  count = candidateLimit(limit, config)
): KeywordCandidates =>
  combinePhrasings(phrasings, count, (phrasing) => {
    const words = ftsMatchExpression(phrasing)
    if (words === undefined) return undefined
    const cues = cueMatches(db, words, scope, count, config, nowMs)
    return { content: contentMatches(db, words, scope, count, config), cues: cues.rows, cueFloor: cues.floor }
  })


// Scope, liveness and category are tokens of the index itself (fts-scope.ts), so FTS5 scores
// only the matches in scope; then the kept candidates' rank fields and outcome sums are read
// in the same statement. Ordered by the selected column, so BM25 is computed once per match,
// not twice (-x DESC orders exactly as x ASC, ties included).
const contentMatches = (db: Db, words: string, scope: Scope, count: number, config: LedgerConfig): CandidateRow[] =>
  statement(
    db,
    `SELECT f.key, f.relevance, m.id, m.created_at, m.confidence, m.confirmations, e.worked, e.failed, e.anchor_ms
       FROM (SELECT rowid AS key, -bm25(memories_fts, ${config.fieldWeights.join(", ")}, 0) AS relevance FROM memories_fts
              WHERE memories_fts MATCH ? ORDER BY relevance DESC LIMIT ?) f
       JOIN memories m ON m.key = f.key
       LEFT JOIN evidence e ON e.memory_id = m.id`
  ).all(inPlaces(words, placeTokensOf(scope.project, true, scope.viewer), scope.category), count) as CandidateRow[]

// A cue's place token says where it applies; liveness, the memory's scope and category, and
// whether the reader may see it (domain/viewer.ts) are checked on the memory row, since a cue's row does not follow its memory's changes. CROSS
// JOIN keeps the best cue matches first in the plan: left to itself, SQLite scanned memories
// by project and ran the full-text match for each (180 ms a search at 100,000 memories).
const cueMatches = (
  db: Db,
  words: string,
  scope: Scope,
  count: number,
  config: LedgerConfig,
  nowMs: number
): { rows: CandidateRow[]; floor: number } => {
  const all = statement(
    db,
    `SELECT m.key, f.relevance, c.weight, c.anchor_ms AS cue_anchor_ms, m.id, m.created_at, m.confidence, m.confirmations, m.category,
            e.worked, e.failed, e.anchor_ms
       FROM (SELECT rowid AS ck, -bm25(cues_fts, 1, ${config.fieldWeights[4]}, 0) AS relevance FROM cues_fts
              WHERE cues_fts MATCH ? ORDER BY relevance DESC LIMIT ?) f
       CROSS JOIN learned_cues c ON c.key = f.ck
       LEFT JOIN memories m ON m.id = c.memory_id AND m.forgotten = 0 AND m.superseded_by IS NULL AND (m.project IS NULL OR m.project IS ?)
                           AND (m.private_to IS NULL OR m.private_to IS ?)
       LEFT JOIN evidence e ON e.memory_id = m.id`
  ).all(cueMatch(words, placeTokensOf(scope.project, true)), count, scope.project, scope.viewer ?? null) as Array<
    Omit<CandidateRow, "key"> & { key: number | null; weight: number; cue_anchor_ms: number; category: string }
  >
  // A cue's weight counts at most 1, so no unread cue scores above the weakest one read.
  const floor = all.length >= count ? Math.min(...all.map((r) => r.relevance)) * config.learnedCueWeight : 0
  const rows = all
    .filter((r): r is typeof r & { key: number } => r.key !== null && (scope.category === undefined || r.category === scope.category))
    .map((r) => ({ ...r, relevance: r.relevance * config.learnedCueWeight * Math.min(1, cueWeightAt({ weight: r.weight, anchorMs: r.cue_anchor_ms }, nowMs, config.halfLifeDays)) }))
  return { rows, floor }
}

const cueMatch = (words: string, places: ReadonlyArray<string>): string =>
  `{text code} : (${words}) AND scope : (${places.map((p) => `"${p}"`).join(" OR ")})`

interface CandidateRow extends Pick<MemoryRow, "key" | "id" | "created_at" | "confidence" | "confirmations"> {
  relevance: number
  worked: number | null
  failed: number | null
  anchor_ms: number | null
}

/** Full rows by key, through one cached statement (a literal IN list would be prepared anew on every call). */
export const memoriesByKey = (db: Db, keys: ReadonlyArray<number>): Map<number, MemoryState> => {
  if (keys.length === 0) return new Map()
  const rows = statement(db, `SELECT ${MEMORY_COLUMNS} FROM memories WHERE key IN (SELECT value FROM json_each(?))`).all(JSON.stringify(keys)) as MemoryRow[]
  return new Map(rows.map((row) => [row.key, rowToMemory(row)]))
}

/**
 * How many memories hold each stem (any indexed column), and how many memories there are: the
 * weights of a query's words in coverage.ts.
 */
export const documentFrequency = (db: Db): DocumentFrequency => (stems) => {
  const df = new Map<string, number>()
  const lookup = statement(db, "SELECT doc FROM memories_fts_rows WHERE term = ?")
  for (const stem of stems) df.set(stem, (lookup.get(stem) as { doc: number } | undefined)?.doc ?? 0)
  const { n } = statement(db, "SELECT count(*) AS n FROM memories").get() as { n: number }
  return { total: n, df }
}

/**
 * Adds vector relevance (store/vector-reads.ts): the cosine of every keyword candidate, and the
 * nearest memories by vector that are in scope, live and of the asked category.
 */
export const addVectorCandidates = (
  db: Db,
  found: Map<number, Candidate<RankFields>>,
  query: QueryVector,
  scope: Scope,
  limit: number,
  config: LedgerConfig
): Map<number, Candidate<RankFields>> =>
  addVectorsShared(sqliteVectorSearch(db), (keys, s) => liveInScope(db, keys, s), found, query, scope, limit, config)

/** The live memories among `keys` in `scope` (its places, reader and category), with their evidence. */
const liveInScope = (db: Db, keys: ReadonlyArray<number>, scope: Scope) => {
  const where = [
    "forgotten = 0",
    "superseded_by IS NULL",
    "(project IS NULL OR project IS ?)",
    "(private_to IS NULL OR private_to IS ?)",
    `key IN (${keys.join(",")})`
  ]
  const args: unknown[] = [scope.project, scope.viewer ?? null]
  if (scope.category !== undefined) {
    where.push("category = ?")
    args.push(scope.category)
  }
  const memories = (db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE ${where.join(" AND ")}`).all(...args) as MemoryRow[]).map(rowToMemory)
  const evidence = loadEvidenceOf(db, memories.map((m) => m.id))
  return memories.map((memory) => ({ memory, evidence: evidence.get(memory.id) }))
}

/** How many of each kind of left-out match `why` lists: enough to explain, few enough to stay cheap. */
const OUTSIDE_LISTED = { dead: 50, otherCategory: 10, otherScope: 10 } as const

/**
 * Memories that match the words but are not candidates: forgotten or superseded ones in scope
 * (best matches first), then, newest first, in-scope ones of another category and other
 * projects' ones. The last two are listed without scoring: there can be thousands of them.
 */
export const keywordMatchesOutsideCandidates = (db: Db, query: string, scope: Scope): MemoryState[] => {
  const words = ftsMatchExpression(query)
  if (words === undefined) return []
  const live = placeTokensOf(scope.project, true, scope.viewer)
  const dead = placeTokensOf(scope.project, false, scope.viewer)
  const keysOf = (sql: string, match: string, max: number) => (statement(db, sql).all(match, max) as { key: number }[]).map((r) => r.key)
  const best = `SELECT rowid AS key FROM memories_fts WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts, 1, 1, 1, 1, 1, 0) LIMIT ?`
  const newest = `SELECT rowid AS key FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid DESC LIMIT ?`
  const keys = [
    ...keysOf(best, inPlaces(words, dead, scope.category), OUTSIDE_LISTED.dead),
    ...(scope.category === undefined ? [] : keysOf(newest, inPlacesOtherCategory(words, [...live, ...dead], scope.category), OUTSIDE_LISTED.otherCategory)),
    ...keysOf(newest, outsidePlaces(words, [...live, ...dead]), OUTSIDE_LISTED.otherScope)
  ]
  const rows = memoriesByKey(db, keys)
  return keys.flatMap((k) => rows.get(k) ?? [])
}
