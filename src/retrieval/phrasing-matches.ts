/**
 * Keyword candidates from each phrasing's matches, whatever store found them: a memory's
 * keyword signal is its best match, by its text or by a learned cue; with several phrasings,
 * each phrasing's signals are scaled to its best and the best phrasing counts. `floor` is the
 * weakest signal a match could have had and still been read (what was cut could score no more).
 */
import type { MemoryState } from "../projections/memory-state.js"
import type { Candidate, PhrasingCandidates } from "./candidate.js"
import type { RankFields } from "./rank.js"

/** A match with its relevance and what ranking needs of its memory, as the stores' queries return it. */
export interface MatchRow {
  readonly key: number
  readonly relevance: number
  readonly id: string
  readonly created_at: string
  readonly confidence: number
  readonly confirmations: number
  readonly worked: number | null
  readonly failed: number | null
  readonly anchor_ms: number | null
}

/** One phrasing's matches: by the memories' text (the best `count`), by learned cues, and the cues' floor. */
export interface PhrasingMatches {
  readonly content: ReadonlyArray<MatchRow>
  readonly cues: ReadonlyArray<MatchRow>
  readonly cueFloor: number
}

/** `matchesOf` answers undefined for a phrasing with no searchable word. */
export const combinePhrasings = (
  phrasings: ReadonlyArray<string>,
  count: number,
  matchesOf: (phrasing: string) => PhrasingMatches | undefined
): PhrasingCandidates => {
  const found = new Map<number, Candidate<RankFields>>()
  let floor = 0
  for (const phrasing of phrasings) {
    const matches = matchesOf(phrasing)
    if (matches === undefined) continue
    const { content, cues, cueFloor } = matches
    const byKey = new Map<number, MatchRow>()
    for (const r of [...content, ...cues]) {
      const seen = byKey.get(r.key)
      if (seen === undefined || r.relevance > seen.relevance) byKey.set(r.key, r)
    }
    const best = phrasings.length === 1 ? 1 : Math.max(0, ...[...byKey.values()].map((r) => r.relevance))
    const contentFloor = content.length >= count ? Math.min(...content.map((r) => r.relevance)) : 0
    if (best > 0) floor = Math.max(floor, Math.max(contentFloor, cueFloor) / best)
    for (const r of byKey.values()) {
      const keyword = best > 0 ? Math.max(0, r.relevance) / best : 0
      const seen = found.get(r.key)
      if (seen !== undefined && seen.keyword >= keyword) continue
      const memory: RankFields = { key: r.key, id: r.id as MemoryState["id"], createdAt: r.created_at, confidence: r.confidence, confirmations: r.confirmations }
      const evidence = r.worked === null ? undefined : { worked: r.worked, failed: r.failed!, anchorMs: r.anchor_ms! }
      found.set(r.key, { memory, evidence, keyword, vector: 0 })
    }
  }
  return Object.assign(found, { floor })
}
