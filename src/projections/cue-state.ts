/**
 * Learned cues, the pure fold: when a conversation reports that a memory worked, what that
 * conversation asked just before becomes text that finds the memory next time.
 *
 * Attribution, in full (docs/ranking.md says the same in prose):
 * - Only an origin that names a conversation (`agent:kind/id`) teaches; `cli` or `mcp:x` does not.
 * - The window of an outcome is the conversation's recalls since its previous outcome: walking
 *   back from the outcome over the conversation's recalls and outcomes, outcomes that come
 *   straight before it (no recall between) share its window; the next earlier outcome closes
 *   it. At most `cueWindowRecalls` recalls, none older than `cueWindowMs` before the outcome,
 *   and only among the conversation's last `CUE_LOOKBACK` recalls and outcomes.
 * - Every phrasing of a recall in the window teaches (the query and each `also`), cut to its
 *   first 32 words, unless that recall already showed the memory first (nothing to learn), it
 *   holds no searchable word, or it was asked from another project than the memory's.
 * - `worked` adds 1 to the cue's weight, `partial` 0.25; `failed` subtracts the failure weight
 *   (1.5) from the cues the window would have taught, and a cue at or below 0 is gone.
 * - Weights halve every outcome half-life (anchored sums, as evidence); a memory keeps its
 *   `maxLearnedCues` strongest cues (the newer wins a tie); a cue a person dropped is never
 *   learned again.
 * No clock, no I/O: the window's recalls are passed in, already read from the log.
 */
import type { MemoryId } from "../domain/ids.js"
import { normaliseForRestatement } from "../domain/text.js"
import type { EventOf, StoredEvent } from "../events/events.js"
import { queryWords } from "../retrieval/fts-query.js"
import { decayFactor, outcomeWeights } from "./evidence-state.js"

export interface LearnedCue {
  readonly text: string
  /** The text as compared: case, spaces and end punctuation folded. */
  readonly norm: string
  /** Where the cue finds the memory: the memory's project, or for a global memory the recall's. */
  readonly project: string | null
  /** Its weight, anchored at `anchorMs` (read it through `cueWeightAt`). */
  readonly weight: number
  readonly anchorMs: number
  /** The conversation, outcome and recall that last taught it. */
  readonly origin: string
  readonly outcomeEventId: string
  readonly recallEventId: string
  readonly learnedAt: string
}

export interface CueState {
  readonly memoryId: MemoryId
  readonly cues: ReadonlyArray<LearnedCue>
  /** Norms a person dropped: never learned again. */
  readonly dropped: ReadonlyArray<string>
}

export interface CueConfig {
  readonly halfLifeDays: number
  readonly failureWeight: number
  readonly maxLearnedCues: number
  readonly cueWindowRecalls: number
  readonly cueWindowMs: number
}

/** The memory as cue learning needs it: where it lives. */
export interface CueMemory {
  readonly id: MemoryId
  readonly project: string | null
}

/** How many of a conversation's latest recalls and outcomes the window is looked for in. */
export const CUE_LOOKBACK = 24
export const MAX_CUE_WORDS = 32

/** `agent:kind/id`: an origin that names one conversation. */
export const isConversationOrigin = (origin: string): boolean => /^[^:/\s]+:[^/\s]+\/\S+$/.test(origin)

/** A phrasing as a cue: its first 32 words. */
export const cueText = (phrasing: string): string => phrasing.trim().split(/\s+/).slice(0, MAX_CUE_WORDS).join(" ")

export const cueNorm = (text: string): string => normaliseForRestatement(text)

/**
 * The recalls an outcome learns from. `earlier` is the conversation's recalls and outcomes
 * before it, newest first (at most CUE_LOOKBACK of them).
 */
export const recallWindow = (
  outcome: StoredEvent,
  earlier: ReadonlyArray<StoredEvent>,
  config: CueConfig
): Array<StoredEvent<EventOf<"MemoriesRecalled">>> => {
  const outcomeMs = Date.parse(outcome.recordedAt)
  const recalls: Array<StoredEvent<EventOf<"MemoriesRecalled">>> = []
  let leading = true
  for (const e of earlier.slice(0, CUE_LOOKBACK)) {
    if (e.event === null) continue
    if (e.event._tag === "OutcomeRecorded") {
      if (leading) continue
      break
    }
    if (e.event._tag !== "MemoriesRecalled") continue
    leading = false
    if (outcomeMs - Date.parse(e.recordedAt) > config.cueWindowMs) break
    recalls.push(e as StoredEvent<EventOf<"MemoriesRecalled">>)
    if (recalls.length >= config.cueWindowRecalls) break
  }
  return recalls
}

export const cueWeightAt = (cue: Pick<LearnedCue, "weight" | "anchorMs">, nowMs: number, halfLifeDays: number): number =>
  cue.weight * decayFactor(cue.anchorMs, nowMs, halfLifeDays)

/** Applies one event to a memory's learned cues; the same object back when nothing changes. */
export const evolveCues = (
  state: CueState | undefined,
  stored: StoredEvent,
  memory: CueMemory,
  window: ReadonlyArray<StoredEvent<EventOf<"MemoriesRecalled">>>,
  config: CueConfig
): CueState | undefined => {
  const event = stored.event
  if (event === null) return state
  if (event._tag === "CueDropped" && event.memoryId === memory.id) {
    const norm = cueNorm(event.cue)
    const base = state ?? { memoryId: memory.id, cues: [], dropped: [] }
    return { memoryId: memory.id, cues: base.cues.filter((c) => c.norm !== norm), dropped: [...new Set([...base.dropped, norm])] }
  }
  if (event._tag !== "OutcomeRecorded" || !event.memoryIds.includes(memory.id) || !isConversationOrigin(stored.origin)) return state
  const taught = phrasingsTaught(window, memory, state?.dropped ?? [])
  if (taught.length === 0) return state
  const nowMs = Date.parse(stored.recordedAt)
  const weights = outcomeWeights(event.outcome)
  const delta = weights.worked - config.failureWeight * weights.failed
  const cues = new Map((state?.cues ?? []).map((c) => [`${c.project ?? ""}\n${c.norm}`, c]))
  for (const t of taught) {
    const key = `${t.project ?? ""}\n${t.norm}`
    const before = cues.get(key)
    if (before === undefined && delta <= 0) continue
    const anchorMs = Math.max(before?.anchorMs ?? nowMs, nowMs)
    const weight = (before ? before.weight * decayFactor(before.anchorMs, anchorMs, config.halfLifeDays) : 0) + delta * decayFactor(nowMs, anchorMs, config.halfLifeDays)
    if (weight <= 0) {
      cues.delete(key)
      continue
    }
    cues.set(key, {
      text: t.text,
      norm: t.norm,
      project: t.project,
      weight,
      anchorMs,
      origin: stored.origin,
      outcomeEventId: stored.id,
      recallEventId: t.recallEventId,
      learnedAt: stored.recordedAt
    })
  }
  const kept = [...cues.values()]
    .map((c, order) => ({ c, order, strength: cueWeightAt(c, nowMs, config.halfLifeDays) }))
    .sort((a, b) => b.strength - a.strength || b.order - a.order)
    .slice(0, config.maxLearnedCues)
    .map(({ c }) => c)
  return { memoryId: memory.id, cues: kept, dropped: state?.dropped ?? [] }
}

interface Taught {
  readonly text: string
  readonly norm: string
  readonly project: string | null
  readonly recallEventId: string
}

/** Oldest recall first, so that a phrasing asked twice is attributed to its latest recall. */
const phrasingsTaught = (window: ReadonlyArray<StoredEvent<EventOf<"MemoriesRecalled">>>, memory: CueMemory, dropped: ReadonlyArray<string>): Taught[] => {
  const taught = new Map<string, Taught>()
  for (const recall of [...window].reverse()) {
    const event = recall.event!
    if (event.memoryIds[0] === memory.id) continue
    const asked = event.project === undefined ? memory.project : event.project
    if (memory.project !== null && asked !== memory.project) continue
    for (const phrasing of [event.query, ...(event.also ?? [])]) {
      const text = cueText(phrasing)
      const norm = cueNorm(text)
      if (norm.length === 0 || dropped.includes(norm) || queryWords(text).length === 0) continue
      taught.set(`${asked ?? ""}\n${norm}`, { text, norm, project: asked, recallEventId: recall.id })
    }
  }
  return [...taught.values()]
}

/** A learned cue as stored: the fold's cue without its norm, with its row key and memory. */
export interface LearnedCueRow extends Omit<LearnedCue, "norm"> {
  readonly key: number
  readonly memoryId: MemoryId
}
