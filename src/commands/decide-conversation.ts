/**
 * Deciders for forgetting a whole conversation and undoing it. Both are idempotent; restoring
 * one whose payloads purge erased is refused, because nothing is left to restore.
 */
import { Either } from "effect"
import { ConversationNotFound, ConversationPurged, type DomainError } from "../domain/errors.js"
import type { Decision, DecisionState } from "./state.js"

export interface ConversationResult {
  readonly origin: string
  readonly forgotten: boolean
  readonly changed: boolean
  readonly events: number
}

export const decideForgetConversation = (
  origin: string,
  state: DecisionState
): Either.Either<Decision<ConversationResult>, DomainError> => {
  const c = state.conversation(origin)
  if (!c || c.events === 0) return Either.left(new ConversationNotFound({ origin }))
  return Either.right({
    events: c.forgotten ? [] : [{ _tag: "ConversationForgotten" as const, origin }],
    result: { origin, forgotten: true, changed: !c.forgotten, events: c.events }
  })
}

export const decideRestoreConversation = (
  origin: string,
  state: DecisionState
): Either.Either<Decision<ConversationResult>, DomainError> => {
  const c = state.conversation(origin)
  if (!c || c.events === 0) return Either.left(new ConversationNotFound({ origin }))
  if (c.forgotten && c.purgedEvents > 0) return Either.left(new ConversationPurged({ origin }))
  return Either.right({
    events: c.forgotten ? [{ _tag: "ConversationRestored" as const, origin }] : [],
    result: { origin, forgotten: false, changed: c.forgotten, events: c.events }
  })
}
