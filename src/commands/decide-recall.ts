/** What an agent was shown: recorded for task linking and audit, never for ranking. */
import { Either } from "effect"
import type { DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import type { Decision } from "./state.js"

export const decideRecall = (
  query: string,
  memoryIds: ReadonlyArray<MemoryId>,
  task: string | undefined
): Either.Either<Decision<{ recorded: true }>, DomainError> =>
  Either.right({
    events: [{ _tag: "MemoriesRecalled", query, memoryIds, ...(task === undefined ? {} : { task }) }],
    result: { recorded: true }
  })
