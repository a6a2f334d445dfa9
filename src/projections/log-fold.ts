/**
 * The whole log folded into every projection's state in one pass, in sequence order, with the
 * state in memory: what a rebuild writes. The same folds as the incremental path
 * (projector.ts), so the result is the same, which `mem verify` and a property test check.
 */
import type { LedgerConfig } from "../config.js"
import { isConversationControl, memoryIdsOf, type StoredEvent } from "../events/events.js"
import { countEvent, setForgotten, type ConversationState } from "./conversation-state.js"
import { countTally, madePrivate, type CountChanges } from "./count-state.js"
import { CUE_LOOKBACK, evolveCues, recallWindow, type CueState } from "./cue-state.js"
import { evolveEvidence, type EvidenceState } from "./evidence-state.js"
import { evolveMemory, type MemoryState } from "./memory-state.js"
import { emptyConversation } from "./projector.js"

export interface FoldedLog {
  readonly memories: Map<string, MemoryState>
  readonly evidence: Map<string, EvidenceState>
  readonly conversations: Map<string, ConversationState>
  /** Learned cues, of live and dead memories alike: a rebuild writes only those whose memory exists. */
  readonly cues: Map<string, CueState>
  /** The overview's counts of the memories and outcomes above. */
  readonly counts: CountChanges
  readonly lastSeq: number
  readonly events: number
}

/** What a fold of the log is told before it reads the log, from the few events that decide it. */
export interface LogOutline {
  /** The origins forgotten once the whole log is read (`finalForgottenOrigins`): only their events are left out. */
  readonly hidden: ReadonlySet<string>
  /** The memories some event of the log makes private (`privateMemories`): their outcomes are counted apart. */
  readonly madePrivate: ReadonlySet<string>
}

/** Folds `events` (the whole log, in order). `onEvent` sees each event's sequence number, for progress. */
export const foldLog = (events: Iterable<StoredEvent>, outline: LogOutline, config: LedgerConfig, onEvent?: (seq: number) => void): FoldedLog => {
  const { hidden, madePrivate } = outline
  const isPrivate = (memoryId: string) => madePrivate.has(memoryId)
  const conversations = new Map<string, ConversationState>()
  const memories = new Map<string, MemoryState>()
  const evidence = new Map<string, EvidenceState>()
  const cues = new Map<string, CueState>()
  // Each conversation's latest recalls and outcomes, newest first: the same CUE_LOOKBACK events
  // the incremental path reads from the log for an outcome's cue window.
  const recent = new Map<string, StoredEvent[]>()
  const counts = countTally()
  let lastSeq = 0
  let read = 0
  for (const stored of events) {
    lastSeq = stored.seq
    read++
    onEvent?.(lastSeq)
    foldConversation(conversations, stored)
    counts.event(stored, isPrivate)
    const event = stored.event
    if (event === null || isConversationControl(event) || hidden.has(stored.origin)) continue
    // The Map writes are skipped when a fold returns its state unchanged (an outcome leaves the
    // memory as it is, and only outcomes move evidence): same maps, a million events faster.
    const outcome = event._tag === "OutcomeRecorded"
    const teaches = outcome || event._tag === "CueDropped"
    const window = outcome ? recallWindow(stored, recent.get(stored.origin) ?? [], config) : []
    if (outcome || event._tag === "MemoriesRecalled") remember(recent, stored)
    for (const memoryId of distinct(memoryIdsOf(event))) {
      const before = memories.get(memoryId)
      const m = evolveMemory(before, stored, memoryId)
      if (m !== undefined && m !== before) memories.set(memoryId, m)
      if (teaches && m !== undefined) {
        const c = evolveCues(cues.get(memoryId), stored, m, window, config)
        if (c !== undefined) cues.set(memoryId, c)
      }
      if (!outcome) continue
      const e = evolveEvidence(evidence.get(memoryId), stored, memoryId, config.halfLifeDays, config.contradictionDiscount)
      if (e) evidence.set(memoryId, e)
    }
  }
  for (const m of memories.values()) counts.memory(undefined, m)
  return { memories, evidence, conversations, cues, counts: counts.changes(), lastSeq, events: read }
}

/** Which origins are forgotten once these control events (forgotten, restored; in order) are read. */
export const finalForgottenOrigins = (controls: Iterable<{ readonly type: string; readonly origin: string }>): Set<string> => {
  const hidden = new Set<string>()
  for (const { type, origin } of controls) {
    if (type === "ConversationForgotten") hidden.add(origin)
    else hidden.delete(origin)
  }
  return hidden
}

/** The memories these events (every memory addition and edit of the log will do) make private. */
export const privateMemories = (events: Iterable<Pick<StoredEvent, "event" | "author">>): Set<string> => {
  const found = new Set<string>()
  for (const stored of events) {
    const memoryId = madePrivate(stored)
    if (memoryId !== undefined) found.add(memoryId)
  }
  return found
}

const remember = (recent: Map<string, StoredEvent[]>, stored: StoredEvent): void => {
  const list = recent.get(stored.origin) ?? []
  list.unshift(stored)
  if (list.length > CUE_LOOKBACK) list.pop()
  recent.set(stored.origin, list)
}

/** The ids once each; most events name one memory, and need no Set for that. */
const distinct = <A>(ids: ReadonlyArray<A>): ReadonlyArray<A> => (ids.length < 2 ? ids : [...new Set(ids)])

const foldConversation = (conversations: Map<string, ConversationState>, stored: StoredEvent): void => {
  conversations.set(stored.origin, countEvent(conversations.get(stored.origin), stored))
  const event = stored.event
  if (event !== null && isConversationControl(event)) {
    const current = conversations.get(event.origin) ?? emptyConversation(event.origin, stored.recordedAt)
    conversations.set(event.origin, setForgotten(current, event._tag === "ConversationForgotten"))
  }
}
