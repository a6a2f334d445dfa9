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
  /**
   * Who wrote its events: each token's name once, in order, and null for events written without
   * a token. A conversation is a person's own when every event is theirs: forgetting or purging
   * anyone else's takes an admin's token (docs/serve.md, "People and tokens").
   */
  readonly authors: ReadonlyArray<string | null>
  /** The people who added a private memory in it: its counts count those, so it is listed for them alone. */
  readonly privateAuthors: ReadonlyArray<string>
}

/** Counts the event against its own origin. */
export const countEvent = (state: ConversationState | undefined, stored: StoredEvent): ConversationState => {
  // Every field written out, in ConversationState's order: one new object per event (a bulk
  // import counts one or two a line), where a spread of a first state made two.
  const added = stored.type === "MemoryAdded" ? 1 : 0
  const outcome = stored.type === "OutcomeRecorded" ? 1 : 0
  const purged = stored.event === null ? 1 : 0
  const author = stored.author ?? null
  const privately = stored.event?._tag === "MemoryAdded" && stored.event.visibility === "private" && author !== null ? author : undefined
  if (state === undefined) {
    return {
      origin: stored.origin,
      events: 1,
      memoriesAdded: added,
      outcomes: outcome,
      firstAt: stored.recordedAt,
      lastAt: stored.recordedAt,
      forgotten: false,
      purgedEvents: purged,
      authors: author === null ? NO_TOKEN : [author],
      privateAuthors: privately === undefined ? NOBODY : [privately]
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
    purgedEvents: state.purgedEvents + purged,
    // The same list while nothing new joins it: a bulk import counts one or two events a line.
    authors: state.authors.includes(author) ? state.authors : [...state.authors, author],
    privateAuthors: privately === undefined || state.privateAuthors.includes(privately) ? state.privateAuthors : [...state.privateAuthors, privately]
  }
}

const NO_TOKEN: ReadonlyArray<string | null> = Object.freeze([null])
const NOBODY: ReadonlyArray<string> = Object.freeze([])

/** Whether every event of the conversation was written through `name`'s tokens. */
export const isOwnConversation = (conversation: ConversationState, name: string): boolean => conversation.authors.every((a) => a === name)

/** Whether `viewer` may see the conversation in a list: no one else added a private memory in it (domain/viewer.ts). */
export const conversationSeenBy = (conversation: ConversationState, viewer: string | null): boolean =>
  conversation.privateAuthors.every((a) => a === viewer)

/** Applies a ConversationForgotten or ConversationRestored to the origin it names. */
export const setForgotten = (state: ConversationState, forgotten: boolean): ConversationState =>
  state.forgotten === forgotten ? state : { ...state, forgotten }
