/**
 * The ranking (docs/ranking.md, "Stages") as one pure function: candidates in, results and the
 * reason for every candidate left out. `search` and `why` both call it, so they cannot disagree.
 *
 * 1. relevance: keyword (BM25) and vector signals, each scaled to the best candidate's;
 *    a candidate with neither never competes;
 * 2. the failure gate removes memories whose outcome score is at or below the gate;
 * 3. the pool keeps the ceil(limit x poolFactor) most relevant; if none of them has a
 *    non-negative record, the best gated memory is admitted on probation;
 * 4. score = sum of weight x term; near-duplicates of a better result are dropped; cut to limit.
 */
import type { LedgerConfig } from "../config.js"
import { DAY_MS, decayedCounts, outcomeScore } from "../projections/evidence-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import type { Coverage } from "./coverage.js"
import { type Candidate, type VectorCue } from "./candidate.js"

/**
 * What the ranking reads of a memory. Candidates carry only these, so a search reads full rows
 * for the results it shows, not for the hundreds of candidates it ranks.
 */
export type RankFields = Pick<MemoryState, "id" | "key" | "createdAt" | "confidence" | "confirmations">

export interface Term {
  /** The term's value, mostly in [0, 1] (outcome in (-1, 1) mapped to (0, 1) by (x + 1) / 2). */
  readonly value: number
  readonly weight: number
  /** weight x value: the terms' contributions add up to the score. */
  readonly contribution: number
}

export interface ScoreTerms {
  /**
   * keyword and vector are scaled to the best candidate's; bm25 and cosine are the raw signals.
   * `viaCue`: the learned cue whose vector gave `cosine` (its own cosine times its weight).
   */
  readonly relevance: Term & { readonly keyword: number; readonly vector: number; readonly bm25: number; readonly cosine: number; readonly viaCue?: VectorCue }
  readonly outcome: Term & { readonly score: number; readonly worked: number; readonly failed: number }
  readonly recency: Term & { readonly ageDays: number }
  readonly confidence: Term
  readonly frequency: Term & { readonly confirmations: number }
}

export interface RankedMemory<M extends RankFields = MemoryState> {
  readonly memory: M
  readonly rank: number
  readonly score: number
  readonly terms: ScoreTerms
  /** Gated, but admitted because nothing in the pool had a non-negative record. */
  readonly probation: boolean
  /** How much of the query it answers, and through which text and phrasing (answers.ts). */
  readonly coverage?: Coverage
}

export type LeftOutStage = "relevance" | "gate" | "pool" | "duplicate" | "limit" | "coverage"

export interface LeftOut<M extends RankFields = MemoryState> {
  readonly memory: M
  readonly stage: LeftOutStage
  readonly reason: string
  /** For the gate: the record that closed it. For duplicates: the better result. */
  readonly outcome?: { readonly score: number; readonly worked: number; readonly failed: number }
  readonly duplicateOf?: string
  readonly coverage?: Coverage
}

export interface RankInput<M extends RankFields = MemoryState> {
  readonly candidates: ReadonlyArray<Candidate<M>>
  readonly limit: number
  readonly nowMs: number
  readonly vectors: boolean
  readonly config: LedgerConfig
  /** Cosine similarity of two memories' vectors, for near-duplicate removal (vectors only). */
  readonly similarity?: (a: M, b: M) => number | undefined
}

export interface Ranking<M extends RankFields = MemoryState> {
  readonly results: ReadonlyArray<RankedMemory<M>>
  readonly leftOut: ReadonlyArray<LeftOut<M>>
}

export const rank = <M extends RankFields>(input: RankInput<M>): Ranking<M> => {
  const { config, limit } = input
  const leftOut: LeftOut<M>[] = []
  const scored = input.candidates.map((c) => ({ c, record: recordOf(c, input) }))

  const relevant = scored.filter(({ c }) => {
    const signal = c.keyword > 0 || (input.vectors && c.vector >= config.minVectorSimilarity)
    if (!signal) leftOut.push({ memory: c.memory, stage: "relevance", reason: "not relevant: no query word matches and no vector is similar enough" })
    return signal
  })
  const gated = relevant.filter(({ record }) => record.score <= config.failureGate)
  const open = relevant.filter(({ record }) => record.score > config.failureGate)

  const relevanceOf = relevanceScale(open.length > 0 ? open : gated, input)
  const byRelevance = (a: (typeof scored)[number], b: (typeof scored)[number]) =>
    relevanceOf(b.c).value - relevanceOf(a.c).value || a.c.memory.key - b.c.memory.key
  open.sort(byRelevance)
  gated.sort((a, b) => b.record.score - a.record.score || byRelevance(a, b))

  const poolSize = Math.ceil(limit * config.poolFactor)
  const pool = open.slice(0, poolSize).map((s) => ({ c: s.c, record: s.record, probation: false }))
  for (const { c } of open.slice(poolSize)) {
    leftOut.push({ memory: c.memory, stage: "pool", reason: `outside the relevance pool (the ${poolSize} most relevant)` })
  }
  const onProbation = config.probation && gated.length > 0 && pool.every(({ record }) => record.score < 0) ? gated[0] : undefined
  if (onProbation) {
    if (pool.length === poolSize) {
      const dropped = pool.pop()!
      leftOut.push({ memory: dropped.c.memory, stage: "pool", reason: "outside the relevance pool: its place went to a memory on probation" })
    }
    pool.push({ c: onProbation.c, record: onProbation.record, probation: true })
  }
  for (const g of gated) {
    if (g === onProbation) continue
    const { score, worked, failed } = g.record
    leftOut.push({
      memory: g.c.memory,
      stage: "gate",
      reason: `failure gate: outcome ${score.toFixed(2)} <= ${config.failureGate} (worked ${worked.toFixed(2)}, failed ${failed.toFixed(2)}, decayed)`,
      outcome: g.record
    })
  }

  const ranked = pool
    .map(({ c, record, probation }) => {
      const terms = termsOf(c, record, relevanceOf(c), input)
      return { c, terms, probation, score: sum(terms) }
    })
    .sort((a, b) => b.score - a.score || b.terms.relevance.value - a.terms.relevance.value || a.c.memory.key - b.c.memory.key)

  const kept: typeof ranked = []
  for (const r of ranked) {
    const better = input.vectors && input.similarity ? kept.find((k) => (input.similarity!(k.c.memory, r.c.memory) ?? 0) >= config.nearDuplicateCosine) : undefined
    if (better) {
      leftOut.push({ memory: r.c.memory, stage: "duplicate", reason: `near-duplicate of ${better.c.memory.id}, which scores higher`, duplicateOf: better.c.memory.id })
    } else if (kept.length >= limit) {
      leftOut.push({ memory: r.c.memory, stage: "limit", reason: `past the limit of ${limit} (score ${r.score.toFixed(4)})` })
    } else kept.push(r)
  }
  return {
    results: kept.map((r, i) => ({ memory: r.c.memory, rank: i + 1, score: r.score, terms: r.terms, probation: r.probation })),
    leftOut
  }
}

const recordOf = <M extends RankFields>(c: Candidate<M>, input: RankInput<M>) => {
  const { worked, failed } = c.evidence ? decayedCounts(c.evidence, input.nowMs, input.config.halfLifeDays) : { worked: 0, failed: 0 }
  return { worked, failed, score: outcomeScore(worked, failed, input.config.failureWeight) }
}

/** Keyword and vector relevance, each relative to the best among `reference`. */
const relevanceScale = <M extends RankFields>(reference: ReadonlyArray<{ c: Candidate<M> }>, input: RankInput<M>) => {
  const bestKeyword = Math.max(0, ...reference.map(({ c }) => c.keyword))
  const bestVector = Math.max(0, ...reference.map(({ c }) => vectorSignal(c, input)))
  const share = input.vectors ? input.config.keywordShare : 1
  return (c: Candidate<M>) => {
    const keyword = bestKeyword > 0 ? c.keyword / bestKeyword : 0
    const vector = bestVector > 0 ? vectorSignal(c, input) / bestVector : 0
    return { keyword, vector, value: share * keyword + (1 - share) * vector }
  }
}

const vectorSignal = <M extends RankFields>(c: Candidate<M>, input: RankInput<M>) => (input.vectors && c.vector >= input.config.minVectorSimilarity ? c.vector : 0)

const termsOf = <M extends RankFields>(
  c: Candidate<M>,
  record: { worked: number; failed: number; score: number },
  relevance: { keyword: number; vector: number; value: number },
  input: RankInput<M>
): ScoreTerms => {
  const w = input.config.weights
  const term = (value: number, weight: number): Term => ({ value, weight, contribution: value * weight })
  const ageDays = Math.max(0, (input.nowMs - Date.parse(c.memory.createdAt)) / DAY_MS)
  const confirmations = c.memory.confirmations
  // Object.assign, not spread: on Node 20 `{ ...term(), more }` took 13 us per call of
  // termsOf (V8's slow path for a spread followed by new properties), 0.4 us this way.
  return {
    relevance: Object.assign(
      term(relevance.value, w.relevance),
      { keyword: relevance.keyword, vector: relevance.vector, bm25: c.keyword, cosine: c.vector },
      c.vectorCue === undefined ? {} : { viaCue: c.vectorCue }
    ),
    outcome: Object.assign(term((record.score + 1) / 2, w.outcome), record),
    recency: Object.assign(term(Math.pow(0.5, ageDays / input.config.recencyHalfLifeDays), w.recency), { ageDays }),
    confidence: term(c.memory.confidence, w.confidence),
    // Restated often = said by many; log-scaled so ten confirmations count 1.
    frequency: Object.assign(term(Math.min(1, Math.log10(confirmations)), w.frequency), { confirmations })
  }
}

const sum = (t: ScoreTerms): number =>
  t.relevance.contribution + t.outcome.contribution + t.recency.contribution + t.confidence.contribution + t.frequency.contribution
