/** Deciders for outcomes and recalls: what happened after memories were shown. */
import { Either } from "effect"
import { InvalidInput, type DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import type { Outcome } from "../domain/vocabulary.js"
import { liveMemory } from "./decide-memory.js"
import { scrubText } from "../privacy/scrub.js"
import type { Decision, DecisionState } from "./state.js"

export interface RecordOutcome {
  readonly memoryIds: ReadonlyArray<MemoryId>
  readonly outcome: Outcome
  readonly task?: string
  readonly note?: string
}

export const decideOutcome = (
  cmd: RecordOutcome,
  state: DecisionState
): Either.Either<Decision<{ memoryIds: MemoryId[]; outcome: Outcome }>, DomainError> => {
  const ids = [...new Set(cmd.memoryIds)]
  const [first, ...rest] = ids
  if (first === undefined) return Either.left(new InvalidInput({ message: "an outcome needs at least one memory id" }))
  for (const id of ids) {
    const checked = liveMemory(state, id, "receive an outcome")
    if (Either.isLeft(checked)) return Either.left(checked.left)
  }
  return Either.right({
    events: [
      {
        _tag: "OutcomeRecorded" as const,
        memoryIds: [first, ...rest],
        outcome: cmd.outcome,
        ...(cmd.task === undefined ? {} : { task: scrubText(cmd.task) }),
        ...(cmd.note === undefined ? {} : { note: scrubText(cmd.note) })
      }
    ],
    result: { memoryIds: ids, outcome: cmd.outcome }
  })
}
