/**
 * Applies events to the projections that reads must see at once, inside the append
 * transaction: if anything here throws, the append rolls back with it.
 *
 * Forgetting a conversation hides every event of its origin. The projections hold the fold of
 * each memory's events without hidden ones, so when a conversation is forgotten or restored,
 * the memories its events touched are folded again from their events. The result is the same
 * as a rebuild with the final set of forgotten origins, which a property test checks.
 */
import type { LedgerConfig } from "../../../config.js"
import type { MemoryId } from "../../../domain/ids.js"
import { isConversationControl, memoryIdsOf, type StoredEvent } from "../../../events/events.js"
import { conversationRecallsBefore, readEvents } from "../event-log.js"
import type { Db } from "../database.js"
import { statement, writesOn } from "../statements.js"
import { countEvent, setForgotten, type ConversationState } from "../../../projections/conversation-state.js"
import { forgottenOrigins, loadConversation, writeConversation } from "./conversations.js"
import { deleteEvidence, loadEvidence, writeEvidence } from "./evidence.js"
import { evolveEvidence, type EvidenceState } from "../../../projections/evidence-state.js"
import { indexMemory } from "./fts.js"
import { evolveMemory, type MemoryState } from "../../../projections/memory-state.js"
import { deleteMemory, loadMemory, writeMemory } from "./memories.js"
import { setCheckpoints } from "./checkpoints.js"
import { CUE_LOOKBACK, evolveCues, recallWindow, type CueState } from "../../../projections/cue-state.js"
import { loadCueState, writeCueState } from "./cues.js"

/**
 * The projections' share of one write transaction. Memories and evidence are written as each
 * event is applied: deciders and later events of the same transaction read them back. What
 * nothing reads back inside the transaction is kept here and written once by `finish`, just
 * before commit: the conversation counts, the checkpoints and the full-text index.
 *
 * Besides sparing a read and two writes per append (a bulk import appends once per line), this
 * keeps FTS5's batching: FTS5 writes its pending terms out as a new segment at every statement
 * savepoint, which write statements open, so index writes interleaved with the others
 * made one small segment, and its merges, per memory.
 */
export interface ProjectionSession {
  readonly apply: (events: ReadonlyArray<StoredEvent>) => void
  /** The conversation as this transaction has it so far, counts not yet written included. */
  readonly conversation: (origin: string) => ConversationState | undefined
  /** Writes what `apply` kept back; runs once, in the same transaction, after the last `apply`. */
  readonly finish: () => void
}

export const openProjectionSession = (db: Db, config: LedgerConfig): ProjectionSession => {
  let hidden: Set<string> | undefined
  const conversations = new Map<string, ConversationState>()
  const indexChanges: Array<readonly [MemoryState | undefined, MemoryState | undefined]> = []
  const index: IndexChange = (before, after) => void indexChanges.push([before, after])
  let lastSeq: number | undefined
  const conversation = (origin: string) => conversations.get(origin) ?? loadConversation(db, origin)

  const apply = (events: ReadonlyArray<StoredEvent>): void => {
    if (events.length === 0) return
    hidden ??= forgottenOrigins(db)
    for (const stored of events) {
      conversations.set(stored.origin, countEvent(conversation(stored.origin), stored))
      const event = stored.event
      if (event === null) continue
      if (isConversationControl(event)) {
        const current = conversation(event.origin) ?? emptyConversation(event.origin, stored.recordedAt)
        conversations.set(event.origin, setForgotten(current, event._tag === "ConversationForgotten"))
        if (event._tag === "ConversationForgotten") hidden.add(event.origin)
        else hidden.delete(event.origin)
        refoldMemories(db, memoriesTouchedBy(db, event.origin), hidden, config, stored.seq, index)
        continue
      }
      if (hidden.has(stored.origin)) continue
      // A recall changes no memory and no evidence (evolveMemory returns the state as is): skip
      // loading the rows it names, which every search would otherwise pay for.
      if (event._tag === "MemoriesRecalled") continue
      const teaches = event._tag === "OutcomeRecorded" || event._tag === "CueDropped"
      const window = event._tag === "OutcomeRecorded" ? windowReader(db, config)(stored) : []
      for (const memoryId of new Set(memoryIdsOf(event))) {
        const before = loadMemory(db, memoryId)
        const after = evolveMemory(before, stored, memoryId)
        if (after !== before) saveMemory(db, before, after, index)
        if (teaches && after) {
          const cuesBefore = loadCueState(db, memoryId)
          const cues = evolveCues(cuesBefore, stored, after, window, config)
          if (cues !== cuesBefore) writeCueState(db, memoryId, cues)
        }
        if (event._tag !== "OutcomeRecorded") continue
        const evidence = evolveEvidence(loadEvidence(db, memoryId), stored, memoryId, config.halfLifeDays, config.contradictionDiscount)
        if (evidence) writeEvidence(db, evidence)
      }
    }
    lastSeq = events[events.length - 1]!.seq
  }

  const finish = (): void => {
    for (const c of conversations.values()) writeConversation(writesOn(db), c)
    conversations.clear()
    if (lastSeq !== undefined) setCheckpoints(writesOn(db), lastSeq)
    lastSeq = undefined
    // Last, so that no savepoint comes between the index writes.
    for (const [before, after] of indexChanges) indexMemory(writesOn(db), before, after)
    indexChanges.length = 0
  }

  return { apply, conversation, finish }
}

/** Applies events and writes everything at once: a session of one append. */
export const applyEvents = (db: Db, events: ReadonlyArray<StoredEvent>, config: LedgerConfig): void => {
  const session = openProjectionSession(db, config)
  session.apply(events)
  session.finish()
}

/** Where a change to a memory's indexed text goes: the index at once, or a session's queue. */
type IndexChange = (before: MemoryState | undefined, after: MemoryState | undefined) => void

/**
 * Folds each memory again from its events up to `throughSeq`, leaving out those of hidden
 * origins. Later events of the same batch are already in the log but not yet applied: folding
 * them here would apply them twice.
 */
export const refoldMemories = (
  db: Db,
  memoryIds: Iterable<string>,
  hidden: ReadonlySet<string>,
  config: LedgerConfig,
  throughSeq = Number.MAX_SAFE_INTEGER,
  index?: IndexChange
): void => {
  for (const memoryId of memoryIds) {
    const events = [...readEvents(db, { memoryId })].filter((e) => e.seq <= throughSeq)
    const { memory, evidence, cues } = foldMemory(events, memoryId as MemoryId, hidden, config, windowReader(db, config))
    saveMemory(db, loadMemory(db, memoryId), memory, index)
    if (evidence) writeEvidence(db, evidence)
    else deleteEvidence(db, memoryId)
    writeCueState(db, memoryId as MemoryId, cues)
  }
}

/** The recalls an outcome learns cues from (cue-state.ts), read from the log. */
export type WindowOf = (outcome: StoredEvent) => ReturnType<typeof recallWindow>

export const windowReader = (db: Db, config: LedgerConfig): WindowOf => (outcome) =>
  recallWindow(outcome, conversationRecallsBefore(db, outcome.origin, outcome.seq, CUE_LOOKBACK), config)

/** One memory's state, evidence and learned cues from its events: the definition both paths share. */
export const foldMemory = (
  events: Iterable<StoredEvent>,
  memoryId: MemoryId,
  hidden: ReadonlySet<string>,
  config: LedgerConfig,
  windowOf: WindowOf
): { memory: MemoryState | undefined; evidence: EvidenceState | undefined; cues: CueState | undefined } => {
  let memory: MemoryState | undefined
  let evidence: EvidenceState | undefined
  let cues: CueState | undefined
  for (const stored of events) {
    if (hidden.has(stored.origin)) continue
    memory = evolveMemory(memory, stored, memoryId)
    evidence = evolveEvidence(evidence, stored, memoryId, config.halfLifeDays, config.contradictionDiscount)
    const tag = stored.event?._tag
    if (memory && (tag === "OutcomeRecorded" || tag === "CueDropped")) {
      cues = evolveCues(cues, stored, memory, tag === "OutcomeRecorded" ? windowOf(stored) : [], config)
    }
  }
  return { memory, evidence, cues }
}

export const saveMemory = (
  db: Db,
  before: MemoryState | undefined,
  after: MemoryState | undefined,
  index: IndexChange = (b, a) => indexMemory(writesOn(db), b, a)
): void => {
  index(before, after)
  if (after) writeMemory(writesOn(db), after)
  else if (before) deleteMemory(db, before.id)
}

const memoriesTouchedBy = (db: Db, origin: string): string[] =>
  (
    statement(
      db,
      "SELECT DISTINCT m.memory_id AS id FROM events e JOIN event_memories m ON m.seq = e.seq WHERE e.origin = ?"
    ).all(origin) as { id: string }[]
  ).map((r) => r.id)

export const emptyConversation = (origin: string, at: string): ConversationState => ({
  origin,
  events: 0,
  memoriesAdded: 0,
  outcomes: 0,
  firstAt: at,
  lastAt: at,
  forgotten: false,
  purgedEvents: 0
})
