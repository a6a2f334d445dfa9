/**
 * The projections of one bulk import transaction, folded in memory and written once at its end
 * (src/services/import-memories.ts explains the bulk path).
 */
import type { DecisionState } from "../commands/state.js"
import type { MemoryId } from "../domain/ids.js"
import { CURRENT_VERSION, memoryIdsOf, type StoredEvent } from "../events/events.js"
import { appendEvents, lastEvent, type NewEvent } from "../events/log.js"
import { setCheckpoints } from "../projections/checkpoints.js"
import { countEvent, type ConversationState } from "../projections/conversation-state.js"
import { forgottenOrigins, loadConversation, writeConversation } from "../projections/conversations.js"
import { addContentChanges } from "../projections/content-changes.js"
import { indexMemory } from "../projections/fts.js"
import { evolveMemory, isLive, type MemoryState } from "../projections/memory-state.js"
import { findRestatement, loadMemory, writeMemory } from "../projections/memories.js"
import type { Db } from "../store/database.js"

/**
 * One bulk transaction's projections, folded in memory by the same `evolveMemory` and
 * `countEvent` as the projector, then written by `finish`. Events of forgotten conversations are
 * hidden from the memories, as the projector hides them.
 */
export class BulkBatch {
  private readonly base: number
  private seq: number
  private appended: number
  private readonly hidden: Set<string>
  /** Memories this batch changed, by id, in the order first changed. */
  private readonly memories = new Map<string, { before: MemoryState | undefined; after: MemoryState }>()
  /** Memories this batch added, by restatement key, scope and project: the first one only. */
  private readonly restatements = new Map<string, MemoryState>()
  private readonly conversations = new Map<string, ConversationState>()
  readonly state: DecisionState

  constructor(private readonly db: Db) {
    this.base = lastEvent(db)?.seq ?? 0
    this.seq = this.base
    this.appended = this.base
    this.hidden = forgottenOrigins(db)
    const current = (id: string) => this.memories.get(id)?.after ?? loadMemory(db, id)
    this.state = {
      memory: (id) => current(id),
      restatementOf: (key, scope, project) => {
        // Memories of the store come first (smaller keys), as `ORDER BY key` has it; a batch's
        // own are found in memory. A memory this batch confirmed is read back in its new state.
        const stored = findRestatement(db, key, scope, project)
        if (stored) {
          const m = current(stored.id)
          if (m && isLive(m)) return m
        }
        const own = this.restatements.get(restatementSlot(key, scope, project))
        return own && isLive(own) ? this.memories.get(own.id)?.after : undefined
      },
      conversation: (origin) => this.conversation(origin)
    }
  }

  private conversation(origin: string): ConversationState | undefined {
    return this.conversations.get(origin) ?? loadConversation(this.db, origin)
  }

  /** Folds one event, with the sequence number the append will give it. */
  apply(e: NewEvent): void {
    this.seq += 1
    const stored: StoredEvent = {
      seq: this.seq,
      id: e.id,
      type: e.event._tag,
      version: CURRENT_VERSION,
      recordedAt: e.recordedAt,
      origin: e.origin,
      agent: e.agent,
      event: e.event,
      payloadHash: "",
      hash: ""
    }
    this.conversations.set(e.origin, countEvent(this.conversation(e.origin), stored))
    if (this.hidden.has(e.origin)) return
    for (const memoryId of memoryIdsOf(e.event)) {
      const known = this.memories.get(memoryId)
      // A MemoryAdded names the id its decider has just made: no row holds it, so none is read.
      const before = known ? known.after : e.event._tag === "MemoryAdded" ? undefined : loadMemory(this.db, memoryId)
      const after = evolveMemory(before, stored, memoryId as MemoryId)
      if (after === undefined || after === before) continue
      this.memories.set(memoryId, { before: known ? known.before : before, after })
      if (before === undefined) {
        const slot = restatementSlot(after.contentKey, after.scope, after.project)
        if (!this.restatements.has(slot)) this.restatements.set(slot, after)
      }
    }
  }

  /** Appends folded events through the hash chain; the log must number them as `apply` did. */
  append(events: ReadonlyArray<NewEvent>): void {
    if (events.length === 0) return
    const stored = appendEvents(this.db, events)
    const expectedFirst = this.appended + 1
    this.appended += stored.length
    if (stored[0]!.seq !== expectedFirst || stored[stored.length - 1]!.seq !== this.appended) {
      throw new Error(`bulk import: the log numbered events from ${stored[0]!.seq}, expected ${expectedFirst}`)
    }
  }

  /** Writes the projections of the appended events, in the order the projector's session does. */
  finish(): void {
    if (this.appended !== this.seq) throw new Error(`bulk import: ${this.seq - this.appended} events folded but not appended`)
    if (this.seq === this.base) return
    for (const { after } of this.memories.values()) writeMemory(this.db, after)
    for (const c of this.conversations.values()) writeConversation(this.db, c)
    setCheckpoints(this.db, this.seq)
    // Last, so that no savepoint comes between the index writes (see ProjectionSession).
    let changes = 0
    for (const { before, after } of this.memories.values()) indexMemory(this.db, before, after, () => changes++)
    // The sum of the counter's bumps, in one write rather than one per memory.
    addContentChanges(this.db, changes)
  }
}

const restatementSlot = (key: string, scope: string, project: string | null) => `${key}\u0000${scope}\u0000${project ?? "\u0001"}`
