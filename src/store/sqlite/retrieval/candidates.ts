/**
 * Stage 1 inputs: the memories that match a query, with their raw relevance signals. Scope,
 * liveness and category are filtered inside the indexes (full-text and vector), so that a large
 * store of other projects' memories can never crowd the current project's out of the list.
 */
import type { LedgerConfig } from "../../../config.js"
import { loadEvidenceOf } from "../projections/evidence.js"
import { MEMORY_COLUMNS, rowToMemory, type MemoryRow } from "../projections/memories.js"
import type { MemoryState } from "../../../projections/memory-state.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { prefetchNearest, sqliteVectorSearch } from "../projections/vector-search.js"
import { placesSearchedFrom, type VectorCandidateReads } from "../../vector-reads.js"
import { learnedCuesByKey } from "../projections/cues.js"
import { contentChanges } from "../projections/content-changes.js"
import { inPlaces, inPlacesOtherCategory, outsidePlaces, placeTokensOf } from "../projections/fts-scope.js"
import { ftsMatchExpression } from "../../../retrieval/fts-query.js"
import type { DocumentFrequency } from "../../../retrieval/coverage.js"
import { candidateLimit, type QueryVector, type Scope } from "../../../retrieval/candidate.js"

/** Full rows by key, through one cached statement (a literal IN list would be prepared anew on every call). */
export const memoriesByKey = (db: Db, keys: ReadonlyArray<number>): Map<number, MemoryState> => {
  if (keys.length === 0) return new Map()
  const rows = statement(db, `SELECT ${MEMORY_COLUMNS} FROM memories WHERE key IN (SELECT value FROM json_each(?))`).all(JSON.stringify(keys)) as MemoryRow[]
  return new Map(rows.map((row) => [row.key, rowToMemory(row)]))
}

/** Stems whose frequencies a connection keeps, at most, before it starts again. */
const KEPT_STEMS = 20_000

/** Per connection: the frequencies read while the indexed text stood at one change count. */
const frequencies = new WeakMap<Db, { changes: number; total: number; df: Map<string, number> }>()

/**
 * How many memories hold each stem (any indexed column), and how many memories there are: the
 * weights of a query's words in coverage.ts. Both change only with the indexed text, which
 * bumps the change count in the same transaction (content-changes.ts), so a connection keeps
 * what it read until the count moves: a common stem's count reads its whole posting list
 * (about 1 ms at 100,000 memories), and counting the memories reads every row.
 */
export const documentFrequency = (db: Db): DocumentFrequency => (stems) => {
  const changes = contentChanges(db)
  let known = frequencies.get(db)
  if (known === undefined || known.changes !== changes || known.df.size > KEPT_STEMS) {
    const { n } = statement(db, "SELECT count(*) AS n FROM memories").get() as { n: number }
    known = { changes, total: n, df: new Map() }
    frequencies.set(db, known)
  }
  const df = new Map<string, number>()
  const lookup = statement(db, "SELECT doc FROM memories_fts_rows WHERE term = ?")
  for (const stem of stems) {
    let n = known.df.get(stem)
    if (n === undefined) {
      n = (lookup.get(stem) as { doc: number } | undefined)?.doc ?? 0
      known.df.set(stem, n)
    }
    df.set(stem, n)
  }
  return { total: known.total, df }
}

/** What the shared vector candidates (store/vector-reads.ts) read here: vectors, scope, learned cues. */
export const vectorCandidateReads = (db: Db): VectorCandidateReads => ({
  search: sqliteVectorSearch(db),
  inScope: (keys, s) => liveInScope(db, keys, s),
  learnedCues: (keys) => learnedCuesByKey(db, keys)
})

/** Starts the KNN `addVectorCandidates` will ask for, where the store has a thread for it (vector-search.ts). */
export const prefetchNeighbours = (db: Db, query: QueryVector, scope: Scope, limit: number, config: LedgerConfig): void =>
  prefetchNearest(db, query.model, query.vector, candidateLimit(limit, config), placesSearchedFrom(scope.project))

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
