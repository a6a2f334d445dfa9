/**
 * The `Tasks` service: the tasks in reach of a working folder, the memories recalled under each,
 * and `sync`, which turns finished tasks into outcomes for those memories. Sync decides every
 * task in one write transaction, so that the check "is an outcome for this task recorded?" and
 * the append that records it cannot be split by another process doing the same.
 */
import { Clock, Context, Effect, Either, Layer } from "effect"
import type { Actor } from "../commands/actor.js"
import { decideTaskOutcome, taskOutcome, type TaskOutcomeResult } from "../commands/decide-task-outcome.js"
import { executeIn } from "../commands/execute.js"
import type { DomainError } from "../domain/errors.js"
import { makeIdFactory, type MemoryId } from "../domain/ids.js"
import type { Outcome } from "../domain/vocabulary.js"
import { isLive } from "../projections/memory-state.js"
import { findTasks, latestInProgress } from "../tasks/find-tasks.js"
import { taskLinksReader } from "../tasks/links.js"
import type { SkippedInput, Task, TaskPlace, TaskRef } from "../tasks/task.js"
import { EventLog } from "../store/event-log.js"
import { LedgerReader } from "../store/ledger-reader.js"

export interface TaskView extends Task {
  /** Live memories recalled while this task was current. */
  readonly linked: number
  /** The outcome already recorded for this task, if any. */
  readonly recorded: Outcome | null
}

export interface TaskListing {
  /** The task that recall links to now: the in-progress one updated last. */
  readonly current: TaskRef | null
  readonly tasks: ReadonlyArray<TaskView>
  readonly skipped: ReadonlyArray<SkippedInput>
}

export interface SyncReport {
  readonly recorded: ReadonlyArray<TaskSummary & { readonly outcome: Outcome; readonly memoryIds: ReadonlyArray<MemoryId> }>
  readonly alreadyRecorded: ReadonlyArray<TaskSummary & { readonly outcome: Outcome }>
  /** Finished tasks under which no live memory was recalled: nothing to record. */
  readonly withoutMemories: ReadonlyArray<TaskSummary & { readonly outcome: Outcome }>
  readonly skipped: ReadonlyArray<SkippedInput>
}

type TaskSummary = Pick<Task, "ref" | "title" | "status" | "source">

export interface SyncOptions {
  readonly cancelledFails: boolean
}

export interface TasksApi {
  readonly list: (place: TaskPlace) => Effect.Effect<TaskListing>
  readonly sync: (place: TaskPlace, options: SyncOptions, actor: Actor) => Effect.Effect<SyncReport, DomainError>
}

export class Tasks extends Context.Tag("memledger/Tasks")<Tasks, TasksApi>() {}

export const makeTasks: Effect.Effect<TasksApi, never, EventLog | LedgerReader> = Effect.gen(function* () {
  const log = yield* EventLog
  const reader = yield* LedgerReader
  const newId = makeIdFactory()

  const list = (place: TaskPlace): Effect.Effect<TaskListing> => {
    const scan = findTasks(place)
    return Effect.map(
      reader.read((reads) => {
        const links = taskLinksReader(reads)
        return scan.tasks.map((task): TaskView => {
          const { memoryIds, recorded } = links(task.ref)
          const linked = memoryIds.filter((id) => {
            const memory = reads.memory(id)
            return memory !== undefined && isLive(memory)
          }).length
          return { ...task, linked, recorded: recorded?.outcome ?? null }
        })
      }),
      (tasks) => ({
        current: latestInProgress(scan.tasks)?.ref ?? null,
        tasks: [...tasks].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.ref.localeCompare(b.ref)),
        skipped: scan.skipped
      })
    )
  }

  const sync = (place: TaskPlace, options: SyncOptions, actor: Actor, nowMs: number): Effect.Effect<SyncReport, DomainError> => {
    const scan = findTasks(place)
    const finished = scan.tasks.filter((task) => taskOutcome(task, options.cancelledFails) !== undefined)
    // Nothing finished, nothing to decide: no need to wait for the write lock.
    if (finished.length === 0) return Effect.succeed(report([], scan.skipped))
    const decided = log.write((tx) => {
      const links = taskLinksReader(tx.reads)
      const results: Array<readonly [Task, TaskOutcomeResult]> = []
      for (const task of finished) {
        const result = executeIn(tx, actor, nowMs, newId, ({ state }) =>
          decideTaskOutcome({ task, cancelledFails: options.cancelledFails }, links(task.ref), state)
        )
        if (Either.isLeft(result)) return Either.left(result.left)
        results.push([task, result.right])
      }
      return Either.right(results)
    })
    return Effect.map(decided, (results) => report(results, scan.skipped))
  }

  return {
    list: (place) => Effect.suspend(() => list(place)),
    sync: (place, options, actor) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) => Effect.suspend(() => sync(place, options, actor, nowMs)))
  }
})

export const TasksLive = Layer.effect(Tasks, makeTasks)

const report = (results: ReadonlyArray<readonly [Task, TaskOutcomeResult]>, skipped: ReadonlyArray<SkippedInput>): SyncReport => {
  const recorded: Array<SyncReport["recorded"][number]> = []
  const alreadyRecorded: Array<SyncReport["alreadyRecorded"][number]> = []
  const withoutMemories: Array<SyncReport["withoutMemories"][number]> = []
  for (const [task, result] of results) {
    const summary = { ref: task.ref, title: task.title, status: task.status, source: task.source }
    if (result.kind === "recorded") recorded.push({ ...summary, outcome: result.outcome, memoryIds: result.memoryIds })
    else if (result.kind === "already-recorded") alreadyRecorded.push({ ...summary, outcome: result.outcome })
    else if (result.kind === "no-memories") withoutMemories.push({ ...summary, outcome: result.outcome })
  }
  return { recorded, alreadyRecorded, withoutMemories, skipped }
}
