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
  // Every field written out, in ConversationState's order: one new object per event (a bulk
  // import counts one or two a line), where a spread of a first state made two.
  const added = stored.type === "MemoryAdded" ? 1 : 0
  const outcome = stored.type === "OutcomeRecorded" ? 1 : 0
  const purged = stored.event === null ? 1 : 0
  if (state === undefined) {
    return {
      origin: stored.origin,
      events: 1,
      memoriesAdded: added,
      outcomes: outcome,
      firstAt: stored.recordedAt,
      lastAt: stored.recordedAt,
      forgotten: false,
      purgedEvents: purged
    }
  }
  return {
    origin: state.origin,
    events: state.events + 1,
    memoriesAdded: state.memoriesAdded + added,
    outcomes: state.outcomes + outcome,
    firstAt: state.firstAt,
    lastAt: stored.recordedAt,
    forgotten: state.forgotten,
    purgedEvents: state.purgedEvents + purged
  }
}

/** Applies a ConversationForgotten or ConversationRestored to the origin it names. */
export const setForgotten = (state: ConversationState, forgotten: boolean): ConversationState =>
  state.forgotten === forgotten ? state : { ...state, forgotten }
