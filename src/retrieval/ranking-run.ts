/**
 * One ranking over a store snapshot: gather candidates, rank them, and (for `why`) explain
 * every result and every match left out. Search and why both go through `runRanking`.
 */
import type { LedgerConfig } from "../config.js"
import { isConversationControl } from "../events/events.js"
import type { MemoryState } from "../projections/memory-state.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import { termEvents, type TermEvents } from "./explain.js"
import { keepAnswers } from "./answers.js"
import { weighPhrasings } from "./coverage.js"
import { queryWords } from "./fts-query.js"
import { rank, type LeftOut, type RankedMemory, type RankFields, type Ranking } from "./rank.js"
import { candidateLimit, type KeywordCandidates, type QueryVector, type Scope } from "./candidate.js"
import type { LearnedCueRow } from "../projections/cue-state.js"

export interface RankingRequest extends Scope {
  readonly query: string
  readonly limit: number
  /** Further phrasings of the same need, searched by keyword beside `query` and fused. */
  readonly also?: ReadonlyArray<string>
}

const phrasingsOf = (request: RankingRequest): ReadonlyArray<string> => [request.query, ...(request.also ?? [])]

export type SearchMode = "keyword" | "hybrid"

export interface RankingRun {
  readonly mode: SearchMode
  readonly ranking: Ranking
}

/**
 * With `query`, hybrid (keyword and vector); without, keyword only. Every result and every
 * memory left out comes with its full row (why explains them all).
 */
export const runRanking = (reads: LedgerReads, request: RankingRequest, nowMs: number, config: LedgerConfig, query?: QueryVector): RankingRun => {
  const run = rankOnly(reads, request, nowMs, config, query)
  const rows = reads.memoriesByKey([...run.ranking.results, ...run.ranking.leftOut].map((r) => r.memory.key))
  const ranking = answersOnly(reads, request, run.ranking, rows, config)
  return {
    mode: run.mode,
    ranking: {
      results: ranking.results.map((r) => ({ ...r, memory: rows.get(r.memory.key)! })),
      leftOut: ranking.leftOut.map((l) => ({ ...l, memory: rows.get(l.memory.key)! }))
    }
  }
}

/** The same ranking as `runRanking`, with full rows for the results only: what search shows. */
export const runSearch = (reads: LedgerReads, request: RankingRequest, nowMs: number, config: LedgerConfig, query?: QueryVector): { mode: SearchMode; results: RankedMemory[] } => {
  const run = query === undefined ? { mode: "keyword" as const, ranking: rankBestMatchesFirst(reads, request, nowMs, config) } : rankOnly(reads, request, nowMs, config, query)
  const rows = reads.memoriesByKey(run.ranking.results.map((r) => r.memory.key))
  const { results } = answersOnly(reads, request, run.ranking, rows, config)
  return { mode: run.mode, results: results.map((r) => ({ ...r, memory: rows.get(r.memory.key)! })) }
}

/** The coverage stage (answers.ts) with what it reads: the results' texts and the query's word weights. */
const answersOnly = (reads: LedgerReads, request: RankingRequest, ranking: Ranking<RankFields>, rows: ReadonlyMap<number, MemoryState>, config: LedgerConfig): Ranking<RankFields> => {
  if (ranking.results.length === 0) return ranking
  const phrasings = weighPhrasings(phrasingsOf(request), reads.documentFrequency())
  const learned = reads.learnedCues(ranking.results.map((r) => r.memory.id))
  const applies = (c: LearnedCueRow) => c.project === null || c.project === request.project
  const textsOf = (key: number) => {
    const memory = rows.get(key)!
    return { memory, learned: (learned.get(memory.id) ?? []).filter(applies) }
  }
  return keepAnswers(ranking, phrasings, textsOf, config)
}

/**
 * Keyword results as `rankOnly` gives them, from fewer candidates when they suffice: a search
 * ranks the best 2 x pool matches first (at 10,000 memories the candidate statement took
 * 0.74 ms for up to 200 and 0.45 ms for 40: reading their rank fields is the difference), and
 * ranks all `candidateLimit` (`widen`) only when the matches it did not rank could change its
 * results.
 *
 * They cannot when more memories passed the gate than the pool holds and one left outside the
 * pool is more relevant than the least relevant match read: then every pool member is more
 * relevant than any match not read, so the pool, the best relevance that scales the others,
 * and the scores are the same; and a result with a non-negative record shows that nothing was
 * admitted on probation, which the gated matches not read could otherwise have been. `why`
 * ranks all candidates, and a property test holds search to it.
 */
const rankBestMatchesFirst = (reads: LedgerReads, request: RankingRequest, nowMs: number, config: LedgerConfig): Ranking<RankFields> => {
  const all = candidateLimit(request.limit, config)
  const first = Math.min(all, 2 * Math.ceil(request.limit * config.poolFactor))
  const best = reads.keywordCandidates(phrasingsOf(request), request, request.limit, config, nowMs, first)
  const ranking = rank({ candidates: [...best.values()], limit: request.limit, nowMs, vectors: false, config })
  if (best.floor === 0 || first === all || decidedByBest(ranking, best)) return ranking
  return rank({ candidates: [...best.widen().values()], limit: request.limit, nowMs, vectors: false, config })
}

const decidedByBest = (ranking: Ranking<RankFields>, read: KeywordCandidates): boolean => {
  if (ranking.results.some((r) => r.probation) || !ranking.results.some((r) => r.terms.outcome.score >= 0)) return false
  // Compared as rank scales them (relative to the best match that passed the gate), so that
  // no rounding of that division can make a match not read tie with a pool member.
  const gated = new Set(ranking.leftOut.flatMap((l) => (l.stage === "gate" ? [l.memory.key] : [])))
  let best = 0
  for (const c of read.values()) if (!gated.has(c.memory.key)) best = Math.max(best, c.keyword)
  // `read.floor` bounds every match not read: from its own text's list or its cues' list, for
  // any phrasing (keywordCandidates).
  return best > 0 && ranking.leftOut.some((l) => l.stage === "pool" && read.get(l.memory.key)!.keyword / best > read.floor / best)
}

const rankOnly = (reads: LedgerReads, request: RankingRequest, nowMs: number, config: LedgerConfig, query?: QueryVector): { mode: SearchMode; ranking: Ranking<RankFields> } => {
  // The store may run the nearest-neighbour search beside the keyword half.
  if (query !== undefined) reads.prefetchNeighbours(query, request, request.limit, config)
  const byKeyword = reads.keywordCandidates(phrasingsOf(request), request, request.limit, config, nowMs)
  if (query === undefined) {
    return { mode: "keyword", ranking: rank({ candidates: [...byKeyword.values()], limit: request.limit, nowMs, vectors: false, config }) }
  }
  const candidates = reads.addVectorCandidates(byKeyword, query, request, request.limit, config, nowMs)
  const similarity = (a: RankFields, b: RankFields) => reads.cosineBetween(query.model, a.key, b.key)
  return { mode: "hybrid", ranking: rank({ candidates: [...candidates.values()], limit: request.limit, nowMs, vectors: true, config, similarity }) }
}

export interface ExplainedResult extends RankedMemory {
  readonly shortId: string
  readonly events: TermEvents
}

export interface ExplainedLeftOut {
  readonly id: string
  readonly shortId: string | null
  readonly content: string
  readonly stage: LeftOut["stage"] | "forgotten" | "superseded" | "scope" | "category" | "forgotten-conversation"
  readonly reason: string
  readonly outcome?: LeftOut["outcome"]
  readonly duplicateOf?: string
  readonly coverage?: LeftOut["coverage"]
}

/** Every result with the events behind its terms, and every matching memory left out with why. */
export const explainRun = (
  reads: LedgerReads,
  request: RankingRequest,
  run: RankingRun,
  nowMs: number,
  config: LedgerConfig
): { results: ExplainedResult[]; leftOut: ExplainedLeftOut[] } => {
  const outsideMatches = reads.keywordMatchesOutside(request.query, request)
  // Hundreds of memories are named: their short ids in one read (on PostgreSQL, one round trip rather than one each).
  const shortIds = reads.shortIds([...run.ranking.results, ...run.ranking.leftOut].map((r) => r.memory.id).concat(outsideMatches.map((m) => m.id)))
  const evidence = reads.evidenceOf(run.ranking.results.map((r) => r.memory.id))
  const results = run.ranking.results.map((r) => ({
    ...r,
    shortId: shortIds.get(r.memory.id)!,
    events: termEvents([...reads.events({ memoryId: r.memory.id, excludeTypes: ["MemoriesRecalled"] })], evidence.get(r.memory.id), nowMs, config)
  }))
  const ranked: ExplainedLeftOut[] = run.ranking.leftOut.map((l) => ({
    id: l.memory.id,
    shortId: shortIds.get(l.memory.id)!,
    content: l.memory.content,
    stage: l.stage,
    reason: l.reason,
    ...(l.outcome ? { outcome: l.outcome } : {}),
    ...(l.duplicateOf ? { duplicateOf: l.duplicateOf } : {}),
    ...(l.coverage ? { coverage: l.coverage } : {})
  }))
  const outside = outsideMatches.map((m): ExplainedLeftOut => {
    const [stage, reason] = m.forgotten
      ? (["forgotten", `forgotten${m.forgottenReason ? ` (${m.forgottenReason})` : ""}; 'mem restore' brings it back`] as const)
      : m.supersededBy !== null
        ? (["superseded", `superseded by ${m.supersededBy}`] as const)
        : m.project !== null && m.project !== request.project
          ? (["scope", `belongs to project ${m.project}`] as const)
          : (["category", `category ${m.category} is not ${request.category}`] as const)
    return { id: m.id, shortId: shortIds.get(m.id)!, content: m.content, stage, reason }
  })
  return { results, leftOut: [...ranked, ...outside, ...inForgottenConversations(reads, request.query)] }
}

/**
 * Memories that match the words but were added by a forgotten conversation: they are in no
 * projection, so they are found in the log itself (forgotten conversations are few).
 */
const inForgottenConversations = (reads: LedgerReads, query: string): ExplainedLeftOut[] => {
  const words = queryWords(query)
  if (words.length === 0) return []
  const found: ExplainedLeftOut[] = []
  for (const origin of reads.forgottenOrigins()) {
    for (const e of reads.events({ origin })) {
      const event = e.event
      if (event === null || isConversationControl(event) || event._tag !== "MemoryAdded") continue
      const text = event.content.toLowerCase()
      if (!words.some((w) => text.includes(w))) continue
      found.push({
        id: event.memoryId,
        shortId: null,
        content: event.content,
        stage: "forgotten-conversation",
        reason: `added by the forgotten conversation ${origin}; 'mem forget-conversation ${origin} --undo' brings it back`
      })
    }
  }
  return found
}
