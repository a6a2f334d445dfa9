/**
 * What the log says about one task: the memories recalled under it and whether an outcome for it
 * is already recorded. Read straight from the log (stores index the task that recalls and
 * outcomes name) rather than kept in a projection: the answer is needed for a few tasks at a
 * time, the index makes each a handful of rows, and a read of the log can never drift from it.
 */
import type { MemoryId } from "../domain/ids.js"
import type { Outcome } from "../domain/vocabulary.js"
import type { LedgerReads } from "../store/ledger-reads.js"

export interface TaskLinks {
  /** Memories shown while the task was current, each once, in the order first shown. */
  readonly memoryIds: ReadonlyArray<MemoryId>
  /** The first outcome recorded with this task, if any. */
  readonly recorded: { readonly outcome: Outcome; readonly eventId: string } | undefined
}

/**
 * Reads links on one snapshot (call it inside a read or a write transaction).
 * - A recall from a forgotten conversation links nothing: forgetting a conversation withdraws
 *   everything it contributed, and what it was shown is part of that.
 * - An outcome counts as recorded whatever its conversation: forgetting the conversation that
 *   recorded it means "do not count it", and a sync that recorded it again would undo that.
 */
export const taskLinksReader = (reads: LedgerReads): ((task: string) => TaskLinks) => {
  const hidden = reads.forgottenOrigins()
  return (task) => {
    const memoryIds = new Set<MemoryId>()
    let recorded: TaskLinks["recorded"]
    for (const stored of reads.events({ task })) {
      const event = stored.event
      if (event?._tag === "OutcomeRecorded") recorded ??= { outcome: event.outcome, eventId: stored.id }
      if (event?._tag === "MemoriesRecalled" && !hidden.has(stored.origin)) for (const id of event.memoryIds) memoryIds.add(id)
    }
    return { memoryIds: [...memoryIds], recorded }
  }
}
