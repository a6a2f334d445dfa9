/**
 * Applies events to the projections that reads must see at once, inside the append
 * transaction: if anything here throws, the append rolls back with it.
 *
 * Forgetting a conversation hides every event of its origin. The projections hold the fold of
 * each memory's events without hidden ones, so when a conversation is forgotten or restored,
 * the memories its events touched are folded again from their events. The result is the same
 * as a rebuild with the final set of forgotten origins, which a property test checks.
 */
import type { LedgerConfig } from "../config.js"
import type { MemoryId } from "../domain/ids.js"
import { isConversationControl, memoryIdsOf, type StoredEvent } from "../events/events.js"
import { readEvents } from "../events/log.js"
import type { Db } from "../store/database.js"
import { statement } from "../store/statements.js"
import { countEvent, setForgotten, type ConversationState } from "./conversation-state.js"
import { forgottenOrigins, loadConversation, writeConversation } from "./conversations.js"
import { deleteEvidence, loadEvidence, writeEvidence } from "./evidence.js"
import { evolveEvidence, type EvidenceState } from "./evidence-state.js"
import { indexMemory } from "./fts.js"
import { evolveMemory, type MemoryState } from "./memory-state.js"
import { deleteMemory, loadMemory, writeMemory } from "./memories.js"
import { setCheckpoints } from "./checkpoints.js"

export const applyEvents = (db: Db, events: ReadonlyArray<StoredEvent>, config: LedgerConfig): void => {
  if (events.length === 0) return
  const hidden = forgottenOrigins(db)
  // Conversation counts change on every event; keep them in memory for the batch, write once.
  const conversations = new Map<string, ConversationState>()
  const conversation = (origin: string) => conversations.get(origin) ?? loadConversation(db, origin)
  for (const stored of events) {
    conversations.set(stored.origin, countEvent(conversation(stored.origin), stored))
    const event = stored.event
    if (event === null) continue
    if (isConversationControl(event)) {
      const current = conversation(event.origin) ?? emptyConversation(event.origin, stored.recordedAt)
      conversations.set(event.origin, setForgotten(current, event._tag === "ConversationForgotten"))
      if (event._tag === "ConversationForgotten") hidden.add(event.origin)
      else hidden.delete(event.origin)
      refoldMemories(db, memoriesTouchedBy(db, event.origin), hidden, config, stored.seq)
      continue
    }
    if (hidden.has(stored.origin)) continue
    for (const memoryId of new Set(memoryIdsOf(event))) {
      const before = loadMemory(db, memoryId)
      const after = evolveMemory(before, stored, memoryId)
      if (after !== before) saveMemory(db, before, after)
      if (event._tag !== "OutcomeRecorded") continue
      const evidence = evolveEvidence(loadEvidence(db, memoryId), stored, memoryId, config.halfLifeDays, config.contradictionDiscount)
      if (evidence) writeEvidence(db, evidence)
    }
  }
  for (const c of conversations.values()) writeConversation(db, c)
  setCheckpoints(db, events[events.length - 1]!.seq)
}

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
  throughSeq = Number.MAX_SAFE_INTEGER
): void => {
  for (const memoryId of memoryIds) {
    const events = [...readEvents(db, { memoryId })].filter((e) => e.seq <= throughSeq)
    const { memory, evidence } = foldMemory(events, memoryId as MemoryId, hidden, config)
    saveMemory(db, loadMemory(db, memoryId), memory)
    if (evidence) writeEvidence(db, evidence)
    else deleteEvidence(db, memoryId)
  }
}

/** One memory's state and evidence from its events: the definition both paths share. */
export const foldMemory = (
  events: Iterable<StoredEvent>,
  memoryId: MemoryId,
  hidden: ReadonlySet<string>,
  config: LedgerConfig
): { memory: MemoryState | undefined; evidence: EvidenceState | undefined } => {
  let memory: MemoryState | undefined
  let evidence: EvidenceState | undefined
  for (const stored of events) {
    if (hidden.has(stored.origin)) continue
    memory = evolveMemory(memory, stored, memoryId)
    evidence = evolveEvidence(evidence, stored, memoryId, config.halfLifeDays, config.contradictionDiscount)
  }
  return { memory, evidence }
}

export const saveMemory = (db: Db, before: MemoryState | undefined, after: MemoryState | undefined): void => {
  indexMemory(db, before, after)
  if (after) writeMemory(db, after)
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
