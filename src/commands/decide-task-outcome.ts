/**
 * Decides what a finished task tells about the memories recalled while it was current: one
 * `OutcomeRecorded` per task, ever. The log is the only memory of what sync did before, so the
 * check reads it (`links.recorded`) and the service runs this under the write lock: two syncs at
 * once then decide one after the other, and the second sees the first's outcome.
 */
import { Either } from "effect"
import type { DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import type { Outcome } from "../domain/vocabulary.js"
import { isLive } from "../projections/memory-state.js"
import type { TaskLinks } from "../tasks/links.js"
import type { Task } from "../tasks/task.js"
import type { Decision, DecisionState } from "./state.js"

export interface SettleTask {
  readonly task: Task
  /** Whether a cancelled task counts as a failure of its memories (off unless asked for). */
  readonly cancelledFails: boolean
}

export type TaskOutcomeResult =
  | { readonly kind: "recorded"; readonly outcome: Outcome; readonly memoryIds: ReadonlyArray<MemoryId> }
  /** An outcome with this task was recorded before (by an earlier sync, or by hand). */
  | { readonly kind: "already-recorded"; readonly outcome: Outcome }
  /** Finished, but no live memory was recalled under it: there is no one to credit or blame. */
  | { readonly kind: "no-memories"; readonly outcome: Outcome }
  /** Still open or in progress (or cancelled without --cancelled-fails): nothing to say yet. */
  | { readonly kind: "unfinished" }

/**
 * done gives `worked`; blocked gives `partial` (the advice got the work somewhere, not all the
 * way); cancelled gives `failed` only when asked, since most tasks are cancelled for reasons
 * that have nothing to do with the advice.
 */
export const taskOutcome = (task: Task, cancelledFails: boolean): Outcome | undefined => {
  switch (task.status) {
    case "done":
      return "worked"
    case "blocked":
      return "partial"
    case "cancelled":
      return cancelledFails ? "failed" : undefined
    case "open":
    case "in_progress":
      return undefined
  }
}

export const decideTaskOutcome = (
  cmd: SettleTask,
  links: TaskLinks,
  state: DecisionState
): Either.Either<Decision<TaskOutcomeResult>, DomainError> => {
  const outcome = taskOutcome(cmd.task, cmd.cancelledFails)
  if (outcome === undefined) return Either.right(nothing({ kind: "unfinished" }))
  if (links.recorded !== undefined) return Either.right(nothing({ kind: "already-recorded", outcome: links.recorded.outcome }))
  // A memory forgotten or superseded since it was recalled no longer takes outcomes.
  const live = [...new Set(links.memoryIds)].filter((id) => {
    const memory = state.memory(id)
    return memory !== undefined && isLive(memory)
  })
  const [first, ...rest] = live
  if (first === undefined) return Either.right(nothing({ kind: "no-memories", outcome }))
  return Either.right({
    events: [{ _tag: "OutcomeRecorded", memoryIds: [first, ...rest], outcome, task: cmd.task.ref, note: `${cmd.task.status}: ${cmd.task.title.slice(0, NOTE_TITLE_LENGTH)}` }],
    result: { kind: "recorded", outcome, memoryIds: live }
  })
}

/** A note names the task for a person reading `mem log`; the ref is what identifies it. */
const NOTE_TITLE_LENGTH = 200

const nothing = (result: TaskOutcomeResult): Decision<TaskOutcomeResult> => ({ events: [], result })
