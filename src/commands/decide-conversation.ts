/**
 * Deciders for forgetting a whole conversation and undoing it. Both are idempotent; restoring
 * one whose payloads purge erased is refused, because nothing is left to restore.
 */
import { Either } from "effect"
import { ConversationNotFound, ConversationPurged, NotPermitted, type DomainError } from "../domain/errors.js"
import { isOwnConversation, type ConversationState } from "../projections/conversation-state.js"
import type { Decision, DecisionState } from "./state.js"

/**
 * Who forgets or restores, when a token's person does: only an admin may touch a conversation
 * that holds anything someone else wrote (or anything written without a token). Absent: the
 * store's own command line, which may touch any.
 */
export interface ConversationWriter {
  readonly name: string
  readonly admin: boolean
}

const permitted = (c: ConversationState, writer: ConversationWriter | undefined, action: string): NotPermitted | undefined =>
  writer === undefined || writer.admin || isOwnConversation(c, writer.name)
    ? undefined
    : new NotPermitted({ action: `${action} ${c.origin}`, reason: `it holds what others wrote, and ${writer.name}'s token is not an admin's` })

export interface ConversationResult {
  readonly origin: string
  readonly forgotten: boolean
  readonly changed: boolean
  readonly events: number
}

export const decideForgetConversation = (
  origin: string,
  state: DecisionState,
  writer?: ConversationWriter
): Either.Either<Decision<ConversationResult>, DomainError> => {
  const c = state.conversation(origin)
  if (!c || c.events === 0) return Either.left(new ConversationNotFound({ origin }))
  const refused = permitted(c, writer, "forgetting")
  if (refused !== undefined) return Either.left(refused)
  return Either.right({
    events: c.forgotten ? [] : [{ _tag: "ConversationForgotten" as const, origin }],
    result: { origin, forgotten: true, changed: !c.forgotten, events: c.events }
  })
}

export const decideRestoreConversation = (
  origin: string,
  state: DecisionState,
  writer?: ConversationWriter
): Either.Either<Decision<ConversationResult>, DomainError> => {
  const c = state.conversation(origin)
  if (!c || c.events === 0) return Either.left(new ConversationNotFound({ origin }))
  const refused = permitted(c, writer, "restoring")
  if (refused !== undefined) return Either.left(refused)
  if (c.forgotten && c.purgedEvents > 0) return Either.left(new ConversationPurged({ origin }))
  return Either.right({
    events: c.forgotten ? [{ _tag: "ConversationRestored" as const, origin }] : [],
    result: { origin, forgotten: false, changed: c.forgotten, events: c.events }
  })
}
