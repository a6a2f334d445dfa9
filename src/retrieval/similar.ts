/**
 * Near-duplicates on write: the live memories in the same scope that a new text
 * would nearly repeat. Keyword: the Dice coefficient of the two texts' content words (stop
 * words left out, plural and tense endings folded), among the best BM25 matches. With vectors,
 * also cosine. An exact restatement is not "similar": the write confirms it instead.
 */
import type { LedgerConfig } from "../config.js"
import { restatementKey } from "../domain/text.js"
import type { MemoryState } from "../projections/memory-state.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import { queryWords } from "./fts-query.js"
import type { QueryVector } from "./candidate.js"

export interface SimilarFound {
  readonly memory: MemoryState
  readonly similarity: number
}

/** How many of the best matches are compared word by word: a near-duplicate ranks near the top. */
const COMPARED = 20
const REPORTED = 5

export const findSimilar = (
  reads: LedgerReads,
  content: string,
  project: string | null,
  config: LedgerConfig,
  vector?: QueryVector
): SimilarFound[] => {
  const ownKey = restatementKey(content)
  const words = contentWords(content)
  const found = new Map<number, SimilarFound>()
  for (const memory of reads.keywordNeighbours(content, project, COMPARED)) {
    const similarity = dice(words, contentWords(memory.content))
    if (similarity >= config.similarWords) found.set(memory.key, { memory, similarity })
  }
  if (vector) {
    for (const { memory, cosine } of reads.vectorNeighbours(vector, project, COMPARED)) {
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

/** Content words with common English endings folded, so "tests" meets "test" and "used" "use". */
export const contentWords = (text: string): Set<string> => new Set(queryWords(text).map(fold))

const fold = (word: string): string => word.replace(/(?:ies|es|s|ed|ing)$/, (end) => (end === "ies" ? "y" : "")).slice(0, 12) || word

export const dice = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => {
  if (a.size === 0 || b.size === 0) return 0
  let shared = 0
  for (const w of a) if (b.has(w)) shared++
  return (2 * shared) / (a.size + b.size)
}
