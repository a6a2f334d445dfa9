/**
 * Applies events to the projections that reads must see at once, inside the append
 * transaction: if anything here throws, the append rolls back with it. Every store runs this
 * same code over its own tables (`ProjectionTables`), so the projections mean the same in each.
 *
 * Forgetting a conversation hides every event of its origin. The projections hold the fold of
 * each memory's events without hidden ones, so when a conversation is forgotten or restored,
 * the memories its events touched are folded again from their events. The result is the same
 * as a rebuild with the final set of forgotten origins, which a property test checks.
 */
import type { LedgerConfig } from "../config.js"
import type { MemoryId } from "../domain/ids.js"
import { isConversationControl, memoryIdsOf, type StoredEvent } from "../events/events.js"
import { countEvent, setForgotten, type ConversationState } from "./conversation-state.js"
import { countTally, madePrivate, type CountChanges, type CountTally } from "./count-state.js"
import { evolveEvidence, type EvidenceState } from "./evidence-state.js"
import { evolveMemory, type MemoryState } from "./memory-state.js"
import { CUE_LOOKBACK, evolveCues, recallWindow, type CueState } from "./cue-state.js"

/** A store's projection rows, as the projector reads and writes them inside a write transaction. */
export interface ProjectionTables {
  readonly memory: (id: string) => MemoryState | undefined
  readonly writeMemory: (memory: MemoryState) => void
  readonly deleteMemory: (id: string) => void
  readonly evidence: (memoryId: string) => EvidenceState | undefined
  readonly writeEvidence: (evidence: EvidenceState) => void
  readonly deleteEvidence: (memoryId: string) => void
  readonly cueState: (memoryId: string) => CueState | undefined
  /** Replaces a memory's learned cues (none when undefined), their searchable rows included. */
  readonly writeCueState: (memoryId: MemoryId, state: CueState | undefined) => void
  readonly conversation: (origin: string) => ConversationState | undefined
  readonly writeConversation: (conversation: ConversationState) => void
  readonly forgottenOrigins: () => Set<string>
  /** The memories any event of `origin` names. */
  readonly memoriesTouchedBy: (origin: string) => string[]
  readonly eventsOfMemory: (memoryId: string) => Iterable<StoredEvent>
  /** A conversation's recalls and outcomes before `seq`, newest first, at most `count`. */
  readonly recallsBefore: (origin: string, seq: number, count: number) => StoredEvent[]
  /** Keeps the keyword index in step with one memory's change. */
  readonly indexMemory: (before: MemoryState | undefined, after: MemoryState | undefined) => void
  /** Whether an event of the log before `seq` made the memory private (count-state.ts `madePrivate`), hidden or not. */
  readonly madePrivateBefore: (memoryId: string, seq: number) => boolean
  /** Adds a write's changes to the counts (count-state.ts). */
  readonly addCounts: (changes: CountChanges) => void
  readonly setCheckpoints: (lastSeq: number) => void
}

/**
 * The projections' share of one write transaction. Memories and evidence are written as each
 * event is applied: deciders and later events of the same transaction read them back. What
 * nothing reads back inside the transaction is kept here and written once by `finish`, just
 * before commit: the conversation counts, the overview's counts, the checkpoints and the keyword
 * index (whose writes a store may batch: SQLite's FTS5 makes one segment per statement savepoint).
 */
export interface ProjectionSession {
  readonly apply: (events: ReadonlyArray<StoredEvent>) => void
  /** The conversation as this transaction has it so far, counts not yet written included. */
  readonly conversation: (origin: string) => ConversationState | undefined
  /** Writes what `apply` kept back; runs once, in the same transaction, after the last `apply`. */
  readonly finish: () => void
}

export const openProjectionSession = (tables: ProjectionTables, config: LedgerConfig): ProjectionSession => {
  let hidden: Set<string> | undefined
  const conversations = new Map<string, ConversationState>()
  const indexChanges: Array<readonly [MemoryState | undefined, MemoryState | undefined]> = []
  let counts: CountTally = countTally()
  const changed: MemoryChange = (before, after) => {
    indexChanges.push([before, after])
    counts.memory(before, after)
  }
  let lastSeq: number | undefined
  const conversation = (origin: string) => conversations.get(origin) ?? tables.conversation(origin)

  // Read when an event first needs it, not for a search's record, which every search writes.
  const forgotten = (): Set<string> => (hidden ??= tables.forgottenOrigins())

  const apply = (events: ReadonlyArray<StoredEvent>): void => {
    if (events.length === 0) return
    for (const stored of events) {
      conversations.set(stored.origin, countEvent(conversation(stored.origin), stored))
      tallyOutcomes(tables, counts, stored)
      const event = stored.event
      if (event === null) continue
      if (isConversationControl(event)) {
        const current = conversation(event.origin) ?? emptyConversation(event.origin, stored.recordedAt)
        conversations.set(event.origin, setForgotten(current, event._tag === "ConversationForgotten"))
        if (event._tag === "ConversationForgotten") forgotten().add(event.origin)
        else forgotten().delete(event.origin)
        refoldMemories(tables, tables.memoriesTouchedBy(event.origin), forgotten(), config, changed, stored.seq)
        continue
      }
      // A recall changes no memory and no evidence (evolveMemory returns the state as is): skip
      // loading the rows it names, and the forgotten conversations, which every search would
      // otherwise pay for.
      if (event._tag === "MemoriesRecalled") continue
      if (forgotten().has(stored.origin)) continue
      const teaches = event._tag === "OutcomeRecorded" || event._tag === "CueDropped"
      const window = event._tag === "OutcomeRecorded" ? windowReader(tables, config)(stored) : []
      for (const memoryId of new Set(memoryIdsOf(event))) {
        const before = tables.memory(memoryId)
        const after = evolveMemory(before, stored, memoryId)
        if (after !== before) saveMemory(tables, before, after, changed)
        if (teaches && after) {
          const cuesBefore = tables.cueState(memoryId)
          const cues = evolveCues(cuesBefore, stored, after, window, config)
          if (cues !== cuesBefore) tables.writeCueState(memoryId, cues)
        }
        if (event._tag !== "OutcomeRecorded") continue
        const evidence = evolveEvidence(tables.evidence(memoryId), stored, memoryId, config.halfLifeDays, config.contradictionDiscount)
        if (evidence) tables.writeEvidence(evidence)
      }
    }
    lastSeq = events[events.length - 1]!.seq
  }

  const finish = (): void => {
    for (const c of conversations.values()) tables.writeConversation(c)
    conversations.clear()
    const countChanges = counts.changes()
    if (countChanges.memories.length > 0 || countChanges.outcomeDays.length > 0 || countChanges.privateOutcomes.length > 0) tables.addCounts(countChanges)
    counts = countTally()
    if (lastSeq !== undefined) tables.setCheckpoints(lastSeq)
    lastSeq = undefined
    for (const [before, after] of indexChanges) tables.indexMemory(before, after)
    indexChanges.length = 0
  }

  return { apply, conversation, finish }
}

/** Applies events and writes everything at once: a session of one append. */
export const applyEvents = (tables: ProjectionTables, events: ReadonlyArray<StoredEvent>, config: LedgerConfig): void => {
  const session = openProjectionSession(tables, config)
  session.apply(events)
  session.finish()
}

/**
 * An outcome counts on its day or as a private outcome (count-state.ts); an event that makes a
 * memory private for the first time moves that memory's earlier outcomes, those not already
 * private by another memory they name, to the private ones. Hidden events count too: whose a
 * memory is, for the log's filter, is read from all its events.
 */
const tallyOutcomes = (tables: ProjectionTables, counts: CountTally, stored: StoredEvent): void => {
  counts.event(stored, (id) => tables.madePrivateBefore(id, stored.seq))
  const memoryId = madePrivate(stored)
  if (memoryId === undefined || tables.madePrivateBefore(memoryId, stored.seq)) return
  for (const earlier of tables.eventsOfMemory(memoryId)) {
    if (earlier.seq >= stored.seq || earlier.event?._tag !== "OutcomeRecorded") continue
    if (earlier.event.memoryIds.some((id) => id !== memoryId && tables.madePrivateBefore(id, stored.seq))) continue
    counts.toPrivate(earlier)
  }
}

/**
 * Where a memory's change is recorded for what follows it: the keyword index and the counts,
 * which a session writes once, before commit.
 */
export type MemoryChange = (before: MemoryState | undefined, after: MemoryState | undefined) => void

/**
 * Folds each memory again from its events up to `throughSeq`, leaving out those of hidden
 * origins. Later events of the same batch are already in the log but not yet applied: folding
 * them here would apply them twice.
 */
export const refoldMemories = (
  tables: ProjectionTables,
  memoryIds: Iterable<string>,
  hidden: ReadonlySet<string>,
  config: LedgerConfig,
  changed: MemoryChange,
  throughSeq = Number.MAX_SAFE_INTEGER
): void => {
  for (const memoryId of memoryIds) {
    const events = [...tables.eventsOfMemory(memoryId)].filter((e) => e.seq <= throughSeq)
    const { memory, evidence, cues } = foldMemory(events, memoryId as MemoryId, hidden, config, windowReader(tables, config))
    saveMemory(tables, tables.memory(memoryId), memory, changed)
    if (evidence) tables.writeEvidence(evidence)
    else tables.deleteEvidence(memoryId)
    tables.writeCueState(memoryId as MemoryId, cues)
  }
}

/** The recalls an outcome learns cues from (cue-state.ts), read from the log. */
export type WindowOf = (outcome: StoredEvent) => ReturnType<typeof recallWindow>

export const windowReader =
  (tables: Pick<ProjectionTables, "recallsBefore">, config: LedgerConfig): WindowOf =>
  (outcome) =>
    recallWindow(outcome, tables.recallsBefore(outcome.origin, outcome.seq, CUE_LOOKBACK), config)

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

export const saveMemory = (tables: ProjectionTables, before: MemoryState | undefined, after: MemoryState | undefined, changed: MemoryChange): void => {
  changed(before, after)
  if (after) tables.writeMemory(after)
  else if (before) tables.deleteMemory(before.id)
}

export const emptyConversation = (origin: string, at: string): ConversationState => ({
  origin,
  events: 0,
  memoriesAdded: 0,
  outcomes: 0,
  firstAt: at,
  lastAt: at,
  forgotten: false,
  purgedEvents: 0,
  authors: [],
  privateAuthors: []
})
