/**
 * Given/when/then for deciders: `given(...events).when(state => decide(cmd, state)).then(events)`.
 * The state is a Map-backed DecisionState folded from the given events with the same pure
 * folds the projections use (evolveMemory, countEvent), hiding forgotten conversations.
 */
import { Either } from "effect"
import { expect } from "vitest"
import type { Decision, DecisionState } from "../../src/commands/state.js"
import type { DomainError } from "../../src/domain/errors.js"
import type { MemoryId } from "../../src/domain/ids.js"
import { isConversationControl, memoryIdsOf, type DomainEvent, type StoredEvent } from "../../src/events/events.js"
import { countEvent, setForgotten, type ConversationState } from "../../src/projections/conversation-state.js"
import { evolveMemory, isLive, type MemoryState } from "../../src/projections/memory-state.js"
import { emptyConversation } from "../../src/projections/projector.js"
import { toStored, type GivenLike } from "./stored.js"

type Decide<R> = (state: DecisionState) => Either.Either<Decision<R>, DomainError>
type ErrorClass = abstract new (...args: never[]) => DomainError

export const given = (...history: ReadonlyArray<GivenLike>) => ({
  when: <R>(decide: Decide<R>) => {
    const outcome = decide(decisionState(toStored(history)))
    return {
      /** The decision records exactly these events (and, if given, answers with this result). */
      then(expected: ReadonlyArray<DomainEvent>, result?: Partial<R>): void {
        if (Either.isLeft(outcome)) expect.fail(`expected events, got ${outcome.left._tag}: ${outcome.left.message}`)
        expect(outcome.right.events).toEqual(expected)
        if (result !== undefined) expect(outcome.right.result).toMatchObject(result)
      },
      /** The decision is refused with this error, and no events. */
      thenFails(errorClass: ErrorClass, fields: Record<string, unknown> = {}): void {
        if (Either.isRight(outcome)) expect.fail(`expected ${errorClass.name}, got events ${JSON.stringify(outcome.right.events)}`)
        expect(outcome.left).toBeInstanceOf(errorClass)
        expect(outcome.left).toMatchObject(fields)
      }
    }
  }
})

/** The DecisionState the write path would build from these events. */
export const decisionState = (events: ReadonlyArray<StoredEvent>): DecisionState => {
  const conversations = new Map<string, ConversationState>()
  for (const stored of events) {
    conversations.set(stored.origin, countEvent(conversations.get(stored.origin), stored))
    const event = stored.event
    if (event !== null && isConversationControl(event)) {
      const current = conversations.get(event.origin) ?? emptyConversation(event.origin, stored.recordedAt)
      conversations.set(event.origin, setForgotten(current, event._tag === "ConversationForgotten"))
    }
  }
  const hidden = new Set([...conversations.values()].filter((c) => c.forgotten).map((c) => c.origin))
  const memories = new Map<MemoryId, MemoryState>()
  for (const stored of events) {
    if (stored.event === null || isConversationControl(stored.event) || hidden.has(stored.origin)) continue
    for (const id of new Set(memoryIdsOf(stored.event))) {
      const next = evolveMemory(memories.get(id), stored, id)
      if (next) memories.set(id, next)
    }
  }
  return {
    memory: (id) => memories.get(id),
    restatementOf: (contentKey, scope, project) =>
      [...memories.values()]
        .filter((m) => isLive(m) && m.contentKey === contentKey && m.scope === scope && m.project === project)
        .sort((a, b) => a.key - b.key)[0],
    conversation: (origin) => conversations.get(origin)
  }
}
