/**
 * Near-duplicates on write: the live memories in the same scope that a new text
 * would nearly repeat. Keyword: the Dice coefficient of the two texts' content words (stop
 * words left out, plural and tense endings folded), among the best BM25 matches. With vectors,
 * also cosine. An exact restatement is not "similar": the write confirms it instead.
 */
import type { LedgerConfig } from "../config.js"
import { restatementKey } from "../domain/text.js"
import type { MemoryState } from "../projections/memory-state.js"
import { MEMORY_COLUMNS, rowToMemory, type MemoryRow } from "../store/sqlite/projections/memories.js"
import { nearest, placesSearchedFrom } from "../store/sqlite/projections/vector-search.js"
import type { Db } from "../store/sqlite/database.js"
import { statement } from "../store/sqlite/statements.js"
import { inPlaces, placeTokensOf } from "../store/sqlite/projections/fts-scope.js"
import { ftsMatchExpression, queryWords } from "./fts-query.js"
import { type QueryVector } from "./candidate.js"

export interface SimilarFound {
  readonly memory: MemoryState
  readonly similarity: number
}

/** How many of the best matches are compared word by word: a near-duplicate ranks near the top. */
const COMPARED = 20
const REPORTED = 5

export const findSimilar = (
  db: Db,
  content: string,
  project: string | null,
  config: LedgerConfig,
  vector?: QueryVector
): SimilarFound[] => {
  const ownKey = restatementKey(content)
  const words = contentWords(content)
  const found = new Map<number, SimilarFound>()
  for (const memory of keywordNeighbours(db, content, project)) {
    const similarity = dice(words, contentWords(memory.content))
    if (similarity >= config.similarWords) found.set(memory.key, { memory, similarity })
  }
  if (vector) {
    for (const { memory, cosine } of vectorNeighbours(db, vector, project)) {
      if (cosine < config.similarCosine) continue
      const prior = found.get(memory.key)
      found.set(memory.key, { memory, similarity: Math.max(cosine, prior?.similarity ?? 0) })
    }
  }
  const all = [...found.values()]
  // Restating a memory confirms it; then nothing is merely similar.
  if (all.some((s) => s.memory.contentKey === ownKey)) return []
  return all.sort((a, b) => b.similarity - a.similarity || a.memory.key - b.memory.key).slice(0, REPORTED)
}

/** Live memories of the project or global; `m` is the memories table's alias. */
const IN_SCOPE = "m.forgotten = 0 AND m.superseded_by IS NULL AND (m.project IS NULL OR m.project IS ?)"

const keywordNeighbours = (db: Db, content: string, project: string | null): MemoryState[] => {
  const match = ftsMatchExpression(content)
  if (match === undefined) return []
  const keys = statement(db, `SELECT rowid AS key FROM memories_fts WHERE memories_fts MATCH ? ORDER BY bm25(memories_fts, 1, 1, 1, 1, 1, 0) LIMIT ${COMPARED}`).all(
    inPlaces(match, placeTokensOf(project, true))
  ) as { key: number }[]
  return byKeys(db, keys.map((k) => k.key), project)
}

const vectorNeighbours = (db: Db, vector: QueryVector, project: string | null) => {
  const near = nearest(db, vector.model, vector.vector, COMPARED, placesSearchedFrom(project))
  const cosine = new Map(near.map((n) => [n.key, n.cosine]))
  return byKeys(db, [...cosine.keys()], project).map((memory) => ({ memory, cosine: cosine.get(memory.key) ?? 0 }))
}

const byKeys = (db: Db, keys: ReadonlyArray<number>, project: string | null): MemoryState[] =>
  keys.length === 0
    ? []
    : (db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.key IN (${keys.join(",")}) AND ${IN_SCOPE}`).all(project) as MemoryRow[]).map(rowToMemory)

/** Content words with common English endings folded, so "tests" meets "test" and "used" "use". */
export const contentWords = (text: string): Set<string> => new Set(queryWords(text).map(fold))

const fold = (word: string): string => word.replace(/(?:ies|es|s|ed|ing)$/, (end) => (end === "ies" ? "y" : "")).slice(0, 12) || word

export const dice = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  if (a.size === 0 || b.size === 0) return 0
  let shared = 0
  for (const w of a) if (b.has(w)) shared++
  return (2 * shared) / (a.size + b.size)
}
