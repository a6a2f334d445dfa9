/**
 * The `conversations` projection's pure fold: per origin, what it contributed and whether it
 * is forgotten. Counts include events of forgotten conversations: they say what `--undo`
 * would bring back.
 */
import type { StoredEvent } from "../events/events.js"

export interface ConversationState {
  readonly origin: string
  readonly events: number
  readonly memoriesAdded: number
  readonly outcomes: number
  readonly firstAt: string
  readonly lastAt: string
  readonly forgotten: boolean
  /** Events whose payload purge erased: a forgotten conversation with any can't be restored. */
  readonly purgedEvents: number
}

/** Counts the event against its own origin. */
export const countEvent = (state: ConversationState | undefined, stored: StoredEvent): ConversationState => {
  const base: ConversationState = state ?? {
    origin: stored.origin,
    events: 0,
    memoriesAdded: 0,
    outcomes: 0,
    firstAt: stored.recordedAt,
    lastAt: stored.recordedAt,
    forgotten: false,
    purgedEvents: 0
  }
  return {
    ...base,
    events: base.events + 1,
    memoriesAdded: base.memoriesAdded + (stored.type === "MemoryAdded" ? 1 : 0),
    outcomes: base.outcomes + (stored.type === "OutcomeRecorded" ? 1 : 0),
    lastAt: stored.recordedAt,
    purgedEvents: base.purgedEvents + (stored.event === null ? 1 : 0)
  }
}

/** Applies a ConversationForgotten or ConversationRestored to the origin it names. */
export const setForgotten = (state: ConversationState, forgotten: boolean): ConversationState =>
  state.forgotten === forgotten ? state : { ...state, forgotten }
