/** What an agent was shown: recorded for task linking and audit, never for ranking. */
import { Either } from "effect"
import type { DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import { scrubText } from "../privacy/scrub.js"
import type { Decision } from "./state.js"

/** What a recall asked: its phrasings, its task, and the project it was asked from. */
export interface RecallAsked {
  readonly query: string
  readonly also?: ReadonlyArray<string>
  readonly task?: string
  readonly project: string | null
}

export const decideRecall = (asked: RecallAsked, memoryIds: ReadonlyArray<MemoryId>): Either.Either<Decision<{ recorded: true }>, DomainError> =>
  Either.right({
    // The phrasings are kept for audit, task links and cue learning, so they pass the privacy
    // scan like any write.
    events: [
      {
        _tag: "MemoriesRecalled",
        query: scrubText(asked.query),
        memoryIds,
        ...(asked.task === undefined ? {} : { task: scrubText(asked.task) }),
        ...(asked.also === undefined || asked.also.length === 0 ? {} : { also: asked.also.map(scrubText) }),
        project: asked.project
      }
    ],
    result: { recorded: true }
  })
