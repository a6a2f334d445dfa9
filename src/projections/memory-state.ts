/**
 * The `memories` projection's pure fold: the current state of one memory from its events.
 * `evolveMemory` is total and exhaustive over event types; it returns the same object when an
 * event does not change the memory, so callers can skip the write.
 */
import type { MemoryId } from "../domain/ids.js"
import type { Category, Scope, Source, Status } from "../domain/vocabulary.js"
import { restatementKey } from "../domain/text.js"
import { isPerson, RULE_CONVERSATIONS } from "../domain/vouching.js"
import type { StoredEvent } from "../events/events.js"
import type { ContentFlag } from "../privacy/vocabulary.js"

export interface MemoryState {
  readonly id: MemoryId
  /** The sequence number of the MemoryAdded event: a stable integer key for FTS and vectors. */
  readonly key: number
  readonly content: string
  readonly contentKey: string
  readonly category: Category
  readonly scope: Scope
  readonly project: string | null
  readonly tags: ReadonlyArray<string>
  /** Questions or phrasings the memory answers, written with it (learned cues are in cues.ts). */
  readonly cues: ReadonlyArray<string>
  readonly source: Source
  readonly status: Status
  /**
   * The current text reads like instructions to an agent (the privacy scan flagged it). Unlike
   * `status`, a confirmation does not clear it: such a memory is never injected as a rule.
   * A revision to new text recomputes it.
   */
  readonly instructionLike: boolean
  readonly confidence: number
  readonly confirmations: number
  /** A person wrote or confirmed the current text (domain/vouching.ts says who counts). */
  readonly confirmedByPerson: boolean
  /**
   * The distinct conversations (origins) that stated the current text, by adding, restating
   * or confirming it, in order: at most RULE_CONVERSATIONS, which is all a rule asks about.
   */
  readonly statedIn: ReadonlyArray<string>
  readonly supersededBy: MemoryId | null
  readonly forgotten: boolean
  readonly forgottenReason: string | null
  readonly distinctFrom: ReadonlyArray<MemoryId>
  readonly createdAt: string
  readonly updatedAt: string
  readonly origin: string
  readonly agent: string
  readonly lastSeq: number
  /**
   * The person the memory is private to (the author of the event that made it private), or
   * null: shared with everyone who may read the store (domain/viewer.ts says who sees what).
   */
  readonly privateTo: string | null
}

/** Every new memory's `distinctFrom`: one shared empty list, not one per memory. */
const NO_IDS: ReadonlyArray<MemoryId> = Object.freeze([])
export const NO_CUES: ReadonlyArray<string> = Object.freeze([])

export const evolveMemory = (
  state: MemoryState | undefined,
  stored: StoredEvent,
  memoryId: MemoryId
): MemoryState | undefined => {
  const event = stored.event
  if (event === null) return state
  if (event._tag === "MemoryAdded") {
    if (state !== undefined || event.memoryId !== memoryId) return state
    return {
      id: event.memoryId,
      key: stored.seq,
      content: event.content,
      contentKey: restatementKey(event.content),
      category: event.category,
      scope: event.scope,
      project: event.project,
      tags: event.tags,
      cues: event.cues ?? NO_CUES,
      source: event.source,
      status: event.status,
      instructionLike: isInstructionLike(event.flags),
      confidence: event.confidence,
      confirmations: 1,
      confirmedByPerson: isPerson(stored.origin, stored.agent),
      statedIn: [stored.origin],
      supersededBy: null,
      forgotten: false,
      forgottenReason: null,
      distinctFrom: NO_IDS,
      createdAt: event.createdAt ?? stored.recordedAt,
      updatedAt: stored.recordedAt,
      origin: stored.origin,
      agent: stored.agent,
      lastSeq: stored.seq,
      privateTo: event.visibility === "private" ? (stored.author ?? null) : null
    }
  }
  if (state === undefined) return undefined
  const touched = (changes: Partial<MemoryState>): MemoryState => ({
    ...state,
    ...changes,
    updatedAt: stored.recordedAt,
    lastSeq: stored.seq
  })
  switch (event._tag) {
    case "MemoryRevised": {
      const content = event.content ?? state.content
      // New text carries its own scan: flagged text turns the memory tentative again.
      const flagged = event.content === undefined ? state.instructionLike : isInstructionLike(event.flags)
      return touched({
        ...(event.content === undefined ? {} : vouchedByWriter(stored)),
        content,
        contentKey: restatementKey(content),
        instructionLike: flagged,
        status: event.content !== undefined && flagged ? "tentative" : state.status,
        category: event.category ?? state.category,
        tags: event.tags ?? state.tags,
        cues: event.cues ?? state.cues,
        scope: event.scope ?? state.scope,
        project: event.project === undefined ? state.project : event.project,
        privateTo: event.visibility === undefined ? state.privateTo : event.visibility === "shared" ? null : (stored.author ?? state.privateTo)
      })
    }
    case "MemoryConfirmed":
      return touched({
        confirmations: state.confirmations + 1,
        status: "confirmed",
        confirmedByPerson: state.confirmedByPerson || isPerson(stored.origin, stored.agent),
        statedIn: alsoStatedIn(state.statedIn, stored.origin)
      })
    case "MemorySuperseded":
      return event.memoryId === memoryId ? touched({ supersededBy: event.by }) : state
    case "MemoriesMarkedDistinct": {
      const other = event.memoryId === memoryId ? event.from : event.memoryId
      return state.distinctFrom.includes(other) ? state : touched({ distinctFrom: [...state.distinctFrom, other] })
    }
    case "MemoryForgotten":
      return touched({ forgotten: true, forgottenReason: event.reason })
    case "MemoryRestored":
      return touched({ forgotten: false, forgottenReason: null })
    case "OutcomeRecorded":
    case "MemoriesRecalled":
    case "CueDropped":
    case "ConversationForgotten":
    case "ConversationRestored":
      return state
  }
}

/**
 * New text was written by this event's writer alone: whoever confirmed the old text did not
 * confirm this one (an agent rewording a person's rule does not keep it a rule).
 */
const vouchedByWriter = (stored: StoredEvent): Pick<MemoryState, "confirmedByPerson" | "statedIn"> => ({
  confirmedByPerson: isPerson(stored.origin, stored.agent),
  statedIn: [stored.origin]
})

const alsoStatedIn = (origins: ReadonlyArray<string>, origin: string): ReadonlyArray<string> =>
  origins.length >= RULE_CONVERSATIONS || origins.includes(origin) ? origins : [...origins, origin]

const isInstructionLike = (flags: ReadonlyArray<ContentFlag> | undefined): boolean => flags?.includes("instruction-like") ?? false

/** Live memories take part in recall: not forgotten and not superseded. */
export const isLive = (m: MemoryState): boolean => !m.forgotten && m.supersededBy === null
