/**
 * What ranking takes from a store's candidate queries: each match with its raw relevance
 * signals, in the scope asked. Every store answers with these, so the ranking is shared.
 */
import type { LedgerConfig } from "../config.js"
import type { EvidenceSums } from "../projections/evidence-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import type { RankFields } from "./rank.js"
import type { Viewer } from "../domain/viewer.js"

export interface Scope {
  /** The current project: its memories and global ones are in scope; null = global only. */
  readonly project: string | null
  readonly category?: string
  /** Whose private memories are in scope besides the shared ones (domain/viewer.ts); none when absent. */
  readonly viewer?: Viewer
}

export interface Candidate<M extends RankFields = MemoryState> {
  readonly memory: M
  /** Its decayed outcome sums; undefined without outcomes. */
  readonly evidence: EvidenceSums | undefined
  /** BM25 score (higher is better), 0 when the words do not match. */
  readonly keyword: number
  /** Cosine similarity to the query, 0 without vectors: its own vector's, or a learned cue's (`vectorCue`). */
  readonly vector: number
  /** The learned cue whose vector gave `vector`, when one came nearer the query than the memory's own. */
  readonly vectorCue?: VectorCue
}

/**
 * A learned cue found by vector: its cosine to the query times `learnedCueWeight` and its
 * decayed weight (at most 1) is what it gives its memory, as a cue matched by words gives its BM25.
 */
export interface VectorCue {
  readonly text: string
  readonly origin: string
  readonly outcomeEventId: string
  readonly recallEventId: string
  /** The cue's own cosine to the query, before its weight. */
  readonly cosine: number
  /** Its weight now: decayed, at most 1. */
  readonly weight: number
}

/** How many keyword matches to consider: enough that gating never starves the pool. */
export const candidateLimit = (limit: number, config: LedgerConfig): number => Math.max(100, Math.ceil(limit * config.poolFactor) * 10)

/**
 * Keyword candidates by key, and `floor`: no match left unread (past `count`) has a keyword
 * signal above it (0 when every match was read). What lets a search rank fewer candidates.
 */
export type PhrasingCandidates = Map<number, Candidate<RankFields>> & { readonly floor: number }

/**
 * `widen` gives the candidates the same search would have given without a `count`: a store
 * that read further than it was asked answers from what it read, without searching again.
 */
export type KeywordCandidates = PhrasingCandidates & { readonly widen: () => KeywordCandidates }

/** A query's vector and the model whose vectors it is compared with. */
export interface QueryVector {
  readonly model: string
  readonly vector: Float32Array
}
