/**
 * One task, whichever tracker it came from. Every reader maps its own statuses onto these five
 * and says how in its comments; only `done`, `blocked` and `cancelled` ever lead to an outcome.
 */
import { Schema } from "effect"

export const TASK_STATUSES = ["open", "in_progress", "blocked", "done", "cancelled"] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]

export const TASK_SOURCES = ["beads", "todo"] as const
export type TaskSource = (typeof TASK_SOURCES)[number]

/**
 * `beads:<issue id>` or `todo:<list>:<id or position>`: the text that `MemoriesRecalled.task`
 * and `OutcomeRecorded.task` carry, so it must stay stable while the task lives.
 */
export const TaskRef = Schema.String.pipe(Schema.pattern(/^(beads|todo):\S/), Schema.brand("TaskRef"))
export type TaskRef = typeof TaskRef.Type

export interface Task {
  readonly ref: TaskRef
  readonly title: string
  readonly status: TaskStatus
  readonly source: TaskSource
  /** ISO-8601; the tracker's own time where it keeps one, else the file's modification time. */
  readonly updatedAt: string
}

/** Input a reader could not use: skipped and counted, never a reason to stop. */
export interface SkippedInput {
  readonly source: TaskSource
  readonly file: string
  /** 1-based line (Beads) or position in the list (todos), when the problem is inside the file. */
  readonly at?: number
  readonly reason: string
}

export interface TaskScan {
  readonly tasks: ReadonlyArray<Task>
  readonly skipped: ReadonlyArray<SkippedInput>
}

/** Where to look: the working folder (Beads walks up from it) and the environment (todos). */
export interface TaskPlace {
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
}

export const beadsRef = (issueId: string): TaskRef => `beads:${issueId}` as TaskRef
export const todoRef = (list: string, id: string): TaskRef => `todo:${list}:${id}` as TaskRef

/** A plain object, as a JSON line or file must be to describe a task. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

export const nonEmptyString = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim().length > 0 ? value : undefined

/** An ISO time from a tracker's field, or undefined when it is missing or not a time. */
export const isoTime = (value: unknown): string | undefined => {
  if (typeof value !== "string") return undefined
  const ms = Date.parse(value)
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString()
}
