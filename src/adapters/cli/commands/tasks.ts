/** Tasks: `mem tasks` lists them with their linked memories, `mem tasks sync` records outcomes. */
import { Command, Options } from "@effect/cli"
import { Effect } from "effect"
import { Tasks, type SyncReport, type TaskListing, type TaskView } from "../../../services/tasks.js"
import type { SkippedInput, TaskPlace } from "../../../tasks/task.js"
import { count, oneLine } from "../format.js"
import * as O from "../options.js"
import { withStore } from "../root.js"

/** Tasks are looked for from where the command runs, as an agent's hook runs it. */
const here = (): TaskPlace => ({ cwd: process.cwd(), env: process.env })

export const tasksSync = Command.make(
  "sync",
  {
    cancelledFails: Options.boolean("cancelled-fails").pipe(
      Options.withDescription("a cancelled task counts as a failure of its memories (off: cancelling says little about the advice)")
    ),
    origin: Options.text("origin").pipe(Options.withDescription("the conversation the outcomes are recorded under"), Options.withDefault("tasks-sync")),
    agent: O.agent,
    json: O.json
  },
  (a) =>
    withStore(
      Effect.zipRight(O.checkWho(a), Effect.flatMap(Tasks, (t) => t.sync(here(), { cancelledFails: a.cancelledFails }, { origin: a.origin, agent: a.agent }))),
      { json: a.json, human: syncText }
    )
).pipe(Command.withDescription("Record an outcome for the memories of each finished task: done worked, blocked partial (once per task)"))

export const tasks = Command.make("tasks", { json: O.json }, ({ json }) =>
  withStore(
    Effect.flatMap(Tasks, (t) => t.list(here())),
    { json, human: listText }
  )
).pipe(
  Command.withDescription("List the Beads issues and Claude Code todos in reach, with the memories recalled under each"),
  Command.withSubcommands([tasksSync])
)

const listText = (l: TaskListing): string => {
  if (l.tasks.length === 0) return ["no tasks found: no .beads/issues.jsonl at or above this folder, no Claude Code todos", ...skippedLines(l.skipped)].join("\n")
  const refWidth = Math.min(40, Math.max(...l.tasks.map((t) => t.ref.length)))
  return [
    ...l.tasks.map((t) => taskLine(t, t.ref === l.current, refWidth)),
    ...skippedLines(l.skipped)
  ].join("\n")
}

const taskLine = (t: TaskView, current: boolean, refWidth: number): string => {
  const linked = count(t.linked, "memory", "memories")
  const recorded = t.recorded === null ? "" : `  (${t.recorded} recorded)`
  return `${current ? "*" : " "} ${t.status.padEnd(11)} ${t.ref.padEnd(refWidth)}  ${linked.padEnd(12)} ${oneLine(t.title, 70)}${recorded}`
}

const syncText = (r: SyncReport): string => {
  const lines = r.recorded.map((t) => `recorded ${t.outcome} for ${count(t.memoryIds.length, "memory", "memories")} of ${t.ref} (${t.status}): ${oneLine(t.title, 60)}`)
  if (r.alreadyRecorded.length > 0) lines.push(`${count(r.alreadyRecorded.length, "finished task")} already recorded before`)
  if (r.withoutMemories.length > 0) lines.push(`${count(r.withoutMemories.length, "finished task")} had no memory recalled under it`)
  if (lines.length === 0) lines.push("no finished task to record")
  return [...lines, ...skippedLines(r.skipped)].join("\n")
}

const skippedLines = (skipped: ReadonlyArray<SkippedInput>): string[] =>
  skipped.length === 0
    ? []
    : [`${count(skipped.length, "unreadable entry", "unreadable entries")} skipped:`, ...skipped.slice(0, 5).map((s) => `  ${s.file}${s.at === undefined ? "" : `:${s.at}`}: ${s.reason}`), ...(skipped.length > 5 ? [`  ... (--json lists all)`] : [])]
