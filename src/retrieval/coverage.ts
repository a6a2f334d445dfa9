/**
 * An absolute measure of relevance, which BM25 scaled to the best match is not: the share of a
 * query's information (its words, weighted by inverse document frequency) that one text holds.
 * A query about Kubernetes that shares only "deploy" with a memory covers little of it, because
 * "kubernetes", found nowhere, carries the most weight.
 *
 * A memory's coverage is the best over its texts (its own text, each written cue, each learned
 * cue that applies where the search runs) and over the query's phrasings, so a paraphrase found
 * through a cue is not cut. The text and phrasing that gave it are kept: `why` shows them.
 */
import { stemsOf } from "./stems.js"

export type CoverageSource = "content" | "written cue" | "learned cue"

export interface CoverageText {
  readonly source: CoverageSource
  readonly text: string
  /** For a learned cue: the conversation, outcome and recall that taught it. */
  readonly learned?: { readonly origin: string; readonly outcomeEventId: string; readonly recallEventId: string }
}

export interface Coverage {
  /** From 0 (no word of any phrasing) to 1 (every word of one phrasing in one text). */
  readonly value: number
  readonly phrasing: string
  readonly source: CoverageSource
  /** The cue, when a cue matched best. */
  readonly cue?: string
  readonly learned?: CoverageText["learned"]
}

/** A phrasing's words with their weights (idf), from `weighPhrasing`. */
export interface WeighedPhrasing {
  readonly text: string
  readonly weights: ReadonlyMap<string, number>
}

/** Document frequency of a stem among the memories; the store answers it. */
export type DocumentFrequency = (stems: ReadonlyArray<string>) => { readonly total: number; readonly df: ReadonlyMap<string, number> }

export const weighPhrasings = (phrasings: ReadonlyArray<string>, frequency: DocumentFrequency): WeighedPhrasing[] => {
  const stems = phrasings.map((p) => stemsOf(p))
  const { total, df } = frequency([...new Set(stems.flatMap((s) => [...s]))])
  return phrasings.map((text, i) => ({
    text,
    weights: new Map([...stems[i]!].map((s) => [s, Math.log(1 + (total + 1) / ((df.get(s) ?? 0) + 0.5))]))
  }))
}

export const coverageOf = (phrasings: ReadonlyArray<WeighedPhrasing>, texts: ReadonlyArray<CoverageText>): Coverage => {
  let best: Coverage = { value: 0, phrasing: phrasings[0]?.text ?? "", source: "content" }
  const stemmed = texts.map((t) => ({ t, stems: stemsOf(t.text) }))
  for (const p of phrasings) {
    let all = 0
    for (const w of p.weights.values()) all += w
    if (all === 0) continue
    for (const { t, stems } of stemmed) {
      let held = 0
      for (const [stem, w] of p.weights) if (stems.has(stem)) held += w
      const value = held / all
      if (value <= best.value) continue
      best = {
        value,
        phrasing: p.text,
        source: t.source,
        ...(t.source === "content" ? {} : { cue: t.text }),
        ...(t.learned ? { learned: t.learned } : {})
      }
    }
  }
  return best
}
