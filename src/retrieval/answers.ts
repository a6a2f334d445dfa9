/**
 * The last stage of a ranking: results that answer too little of the query are left out
 * (coverage.ts), and the rest keep their order, renumbered. Search and why both run it, on the
 * same ranking, so they cannot disagree.
 */
import type { LedgerConfig } from "../config.js"
import type { MemoryState } from "../projections/memory-state.js"
import { coverageOf, type CoverageText, type WeighedPhrasing } from "./coverage.js"
import type { LeftOut, RankedMemory, RankFields, Ranking } from "./rank.js"
import { type LearnedCueRow } from "../projections/cue-state.js"

export interface AnswerTexts {
  readonly memory: MemoryState
  /** The memory's learned cues that apply where the search runs. */
  readonly learned: ReadonlyArray<LearnedCueRow>
}

export const keepAnswers = <M extends RankFields>(
  ranking: Ranking<M>,
  phrasings: ReadonlyArray<WeighedPhrasing>,
  textsOf: (key: number) => AnswerTexts,
  config: LedgerConfig
): Ranking<M> => {
  const kept: RankedMemory<M>[] = []
  const leftOut: LeftOut<M>[] = [...ranking.leftOut]
  for (const r of ranking.results) {
    const coverage = coverageOf(phrasings, textsFor(textsOf(r.memory.key)))
    const byVector = r.terms.relevance.vector > 0 && r.terms.relevance.cosine >= config.coverageCosine
    if (coverage.value >= config.minCoverage || byVector) {
      kept.push({ ...r, rank: kept.length + 1, coverage })
      continue
    }
    leftOut.push({
      memory: r.memory,
      stage: "coverage",
      reason: `answers too little of the query: coverage ${coverage.value.toFixed(2)} < ${config.minCoverage}`,
      coverage
    })
  }
  return { results: kept, leftOut }
}

const textsFor = ({ memory, learned }: AnswerTexts): CoverageText[] => [
  { source: "content", text: `${memory.content}\n${memory.tags.join(" ")}\n${memory.category}` },
  ...memory.cues.map((text): CoverageText => ({ source: "written cue", text })),
  ...learned.map((c): CoverageText => ({
    source: "learned cue",
    text: c.text,
    learned: { origin: c.origin, outcomeEventId: c.outcomeEventId, recallEventId: c.recallEventId }
  }))
]
