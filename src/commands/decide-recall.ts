/** What an agent was shown: recorded for task linking and audit, never for ranking. */
import { Either } from "effect"
import type { DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import { scrubText } from "../privacy/scrub.js"
import type { Decision } from "./state.js"

export const decideRecall = (
  query: string,
  memoryIds: ReadonlyArray<MemoryId>,
  task: string | undefined
): Either.Either<Decision<{ recorded: true }>, DomainError> =>
  Either.right({
    // The query is kept for audit and task links, so it passes the privacy scan like any write.
    events: [{ _tag: "MemoriesRecalled", query: scrubText(query), memoryIds, ...(task === undefined ? {} : { task: scrubText(task) }) }],
    result: { recorded: true }
  })
