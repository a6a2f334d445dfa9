/** A memory's cues as a person reads them (`mem cues`): written ones, then learned ones with their source. */
import type { LedgerConfig } from "../config.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import { cueWeightAt } from "./cue-state.js"
import type { MemoryState } from "./memory-state.js"

export type CueView = WrittenCueView | LearnedCueView

export interface WrittenCueView {
  readonly text: string
  readonly source: "written"
}

/** Where a learned cue applies, its weight now, and the conversation, outcome and recall behind it. */
export interface LearnedCueView {
  readonly text: string
  readonly source: "learned"
  readonly project: string | null
  readonly weight: number
  readonly origin: string
  readonly outcomeEventId: string
  readonly recallEventId: string
  readonly learnedAt: string
}

export const cuesOfMemory = (reads: LedgerReads, memory: MemoryState, nowMs: number, config: LedgerConfig): CueView[] => [
  ...memory.cues.map((text): WrittenCueView => ({ text, source: "written" })),
  ...(reads.learnedCues([memory.id]).get(memory.id) ?? [])
    .map((c): LearnedCueView => ({
      text: c.text,
      source: "learned",
      project: c.project,
      weight: cueWeightAt(c, nowMs, config.halfLifeDays),
      origin: c.origin,
      outcomeEventId: c.outcomeEventId,
      recallEventId: c.recallEventId,
      learnedAt: c.learnedAt
    }))
    .sort((a, b) => b.weight - a.weight)
]
