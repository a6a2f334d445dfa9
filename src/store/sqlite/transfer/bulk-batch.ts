/**
 * The projections of one bulk import transaction, folded in memory and written once at its end
 * (src/store/sqlite/transfer/import-memories.ts explains the bulk path).
 */
import type { DecisionState } from "../../../commands/state.js"
import type { MemoryId } from "../../../domain/ids.js"
import { CURRENT_VERSION, memoryIdsOf, type StoredEvent } from "../../../events/events.js"
import { appendRawAfter, lastEvent } from "../event-log.js"
import { setCheckpoints } from "../projections/checkpoints.js"
import { countEvent, type ConversationState } from "../../../projections/conversation-state.js"
import { countTally } from "../../../projections/count-state.js"
import { addCounts } from "../projections/counts.js"
import { forgottenOrigins, writeConversation } from "../projections/conversations.js"
import { addContentChanges } from "../projections/content-changes.js"
import { indexMemory } from "../projections/fts.js"
import { evolveMemory, isLive, type MemoryState } from "../../../projections/memory-state.js"
import { findRestatement, loadMemory, writeMemory } from "../projections/memories.js"
import type { Db } from "../database.js"
import type { Writes } from "../statements.js"
import type { ImportView } from "./import-view.js"
import { EMPTY_LOG, encodeEvents, type LogHead, type NewEvent } from "../../../events/log.js"

/**
 * One bulk transaction's projections, folded in memory by the same `evolveMemory` and
 * `countEvent` as the projector, then written by `finish`. Events of forgotten conversations are
 * hidden from the memories, as the projector hides them.
 *
 * It reads the store through `db` and writes through `to`, which may be a writer thread
 * (batch-writer.ts) still writing `previous`, the batch before: the store cannot show that one
 * until it commits, so the batch reads it from `previous`'s maps first, and chains its events on
 * where `previous` ended. The batch before `previous` must be committed. What else it knows of the
 * store comes from `view` (import-view.ts).
 */
export class BulkBatch {
  /** Where the log ended when the batch began: the writer checks it still does. */
  readonly start: LogHead
  private seq: number
  /** The last event appended so far: the next append chains on it. */
  private head: LogHead
  private readonly hidden: Set<string>
  /** Memories this batch changed, by id, in the order first changed. */
  private readonly memories = new Map<string, { before: MemoryState | undefined; after: MemoryState }>()
  /**
   * Memories this batch added, by restatement key: the first one in each scope and project.
   * Keyed by the key alone, which the memory holds already: a key joined to its scope and
   * project made four strings a line that lived as long as the batch.
   */
  private readonly restatements = new Map<string, MemoryState[]>()
  private readonly conversations = new Map<string, ConversationState>()
  readonly state: DecisionState

  constructor(
    private readonly db: Db,
    private readonly to: Writes,
    private readonly view: ImportView,
    private previous?: BulkBatch
  ) {
    this.start = previous ? previous.head : (lastEvent(db) ?? EMPTY_LOG)
    this.head = this.start
    this.seq = this.start.seq
    // An import forgets no conversation, so the batches of one import hide the same ones.
    this.hidden = previous ? previous.hidden : forgottenOrigins(db)
    this.state = {
      memory: (id) => this.current(id),
      restatementOf: (key, scope, project) => {
        // Memories of the store come first (smaller keys), as `ORDER BY key` has it, then the
        // batch before's, then this one's. A memory confirmed since is read in its new state.
        const stored = view.filter === undefined || view.filter.mayHold(key) ? findRestatement(db, key, scope, project) : undefined
        if (stored) {
          const m = this.current(stored.id)
          if (m && isLive(m)) return m
        }
        const added = this.previous?.added(key, scope, project) ?? this.added(key, scope, project)
        return added && isLive(added) ? this.current(added.id) : undefined
      },
      conversation: (origin) => this.conversation(origin)
    }
  }

  /** The batch before is committed: the store shows it now. */
  previousCommitted(): void {
    this.previous = undefined
  }

  /** This batch is committed: the view counts its conversations from now on. */
  committed(): void {
    this.view.committed(this.conversations.values())
  }

  /** A memory as this batch has left it so far; undefined if no batch or store holds it. */
  private current(id: string): MemoryState | undefined {
    return this.memories.get(id)?.after ?? this.previous?.memories.get(id)?.after ?? loadMemory(this.db, id)
  }

  private added(key: string, scope: string, project: string | null): MemoryState | undefined {
    return this.restatements.get(key)?.find((m) => m.scope === scope && m.project === project)
  }

  private conversation(origin: string): ConversationState | undefined {
    return this.conversations.get(origin) ?? this.previous?.conversations.get(origin) ?? this.view.conversation(origin)
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
      ...(e.author === undefined ? {} : { author: e.author }),
      event: e.event,
      payloadHash: "",
      hash: ""
    }
    this.conversations.set(e.origin, countEvent(this.conversation(e.origin), stored))
    if (this.hidden.has(e.origin)) return
    for (const memoryId of memoryIdsOf(e.event)) {
      const known = this.memories.get(memoryId)
      // A MemoryAdded names the id its decider has just made: no row holds it, so none is read.
      const before = known ? known.after : e.event._tag === "MemoryAdded" ? undefined : this.current(memoryId)
      const after = evolveMemory(before, stored, memoryId as MemoryId)
      if (after === undefined || after === before) continue
      this.memories.set(memoryId, { before: known ? known.before : before, after })
      if (before === undefined) {
        const same = this.restatements.get(after.contentKey)
        if (same === undefined) this.restatements.set(after.contentKey, [after])
        else if (this.added(after.contentKey, after.scope, after.project) === undefined) same.push(after)
        this.view.filter?.add(after.contentKey)
      }
    }
  }

  /** Appends folded events through the hash chain, numbered as `apply` numbered them. */
  append(events: ReadonlyArray<NewEvent>): void {
    if (events.length === 0) return
    const stored = appendRawAfter(this.to, this.head, encodeEvents(events))
    this.head = stored[stored.length - 1]!
  }

  /** Writes the projections of the appended events, in the order the projector's session does. */
  finish(): void {
    if (this.head.seq !== this.seq) throw new Error(`bulk import: ${this.seq - this.head.seq} events folded but not appended`)
    if (this.seq === this.start.seq) return
    for (const { after } of this.memories.values()) writeMemory(this.to, after)
    for (const c of this.conversations.values()) writeConversation(this.to, c)
    const counts = countTally()
    for (const { before, after } of this.memories.values()) counts.memory(before, after)
    addCounts(this.to, counts.changes())
    setCheckpoints(this.to, this.seq)
    // Last, so that no savepoint comes between the index writes (see ProjectionSession).
    let changes = 0
    for (const { before, after } of this.memories.values()) indexMemory(this.to, before, after, () => changes++)
    // The sum of the counter's bumps, in one write rather than one per memory.
    addContentChanges(this.to, changes)
  }
}
