/**
 * What a decider may look at: a read-only view of the current projections. Deciders stay pure
 * (no clock, no randomness, no I/O of their own); the service hands them this view from inside
 * the write transaction, and tests hand them a Map-backed one.
 */
import type { MemoryId } from "../domain/ids.js"
import type { Scope } from "../domain/vocabulary.js"
import type { ConversationState } from "../projections/conversation-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import type { Viewer } from "../domain/viewer.js"

export interface DecisionState {
  readonly memory: (id: MemoryId) => MemoryState | undefined
  /**
   * The live memory, if any, whose normalised text equals `contentKey` in that scope and project,
   * among those `viewer` sees (domain/viewer.ts): another person's private memory is never restated.
   */
  readonly restatementOf: (contentKey: string, scope: Scope, project: string | null, viewer?: Viewer) => MemoryState | undefined
  readonly conversation: (origin: string) => ConversationState | undefined
}

/** What a decider returns: the events to append and what to tell the caller. */
export interface Decision<R> {
  readonly events: ReadonlyArray<import("../events/events.js").DomainEvent>
  readonly result: R
}
