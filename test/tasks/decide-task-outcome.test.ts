/**
 * Protects `decideTaskOutcome`: a finished task gives its live linked memories one outcome
 * (done worked, blocked partial, cancelled failed only when asked), and never a second one.
 */
import { describe, test } from "vitest"
import { decideTaskOutcome } from "../../src/commands/decide-task-outcome.js"
import type { DecisionState } from "../../src/commands/state.js"
import type { MemoryId } from "../../src/domain/ids.js"
import type { TaskLinks } from "../../src/tasks/links.js"
import { beadsRef, type Task, type TaskStatus } from "../../src/tasks/task.js"
import { given } from "../support/decider-spec.js"
import { added, forgotten, outcome, superseded } from "../support/events.js"
import { memoryId } from "../support/ids.js"

const A = memoryId(1)
const B = memoryId(2)
const C = memoryId(3)
const memories = [added(A, "x"), added(B, "y"), added(C, "z")] as const

const task = (status: TaskStatus): Task => ({ ref: beadsRef("bd-12"), title: "Fix login", status, source: "beads", updatedAt: "2026-01-01T00:00:00.000Z" })
const linked = (...memoryIds: MemoryId[]): TaskLinks => ({ memoryIds, recorded: undefined })
const settle = (status: TaskStatus, links: TaskLinks, cancelledFails = false) => (state: DecisionState) =>
  decideTaskOutcome({ task: task(status), cancelledFails }, links, state)

describe("a finished task", () => {
  test("done gives worked to every linked memory, naming the task", () =>
    given(...memories)
      .when(settle("done", linked(A, B)))
      .then([outcome([A, B], "worked", { task: "beads:bd-12", note: "done: Fix login" })], { kind: "recorded", outcome: "worked", memoryIds: [A, B] }))

  test("blocked gives partial", () =>
    given(...memories).when(settle("blocked", linked(C))).then([outcome([C], "partial", { task: "beads:bd-12", note: "blocked: Fix login" })]))

  test("cancelled gives failed when cancelled tasks count as failures", () =>
    given(...memories).when(settle("cancelled", linked(A), true)).then([outcome([A], "failed", { task: "beads:bd-12", note: "cancelled: Fix login" })]))

  test("cancelled gives nothing by default", () => given(...memories).when(settle("cancelled", linked(A))).then([], { kind: "unfinished" }))

  test("names a memory recalled twice once", () =>
    given(...memories).when(settle("done", linked(B, A, B))).then([outcome([B, A], "worked", { task: "beads:bd-12", note: "done: Fix login" })]))
})

describe("nothing to record", () => {
  test.each(["open", "in_progress"] as const)("while the task is %s", (status) =>
    given(...memories).when(settle(status, linked(A))).then([], { kind: "unfinished" }))

  test("when an outcome with this task is already in the log", () =>
    given(...memories)
      .when(settle("done", { memoryIds: [A], recorded: { outcome: "partial", eventId: "e" } }))
      .then([], { kind: "already-recorded", outcome: "partial" }))

  test("when no memory was recalled under the task", () => given(...memories).when(settle("done", linked())).then([], { kind: "no-memories", outcome: "worked" }))
})

describe("memories that changed since they were recalled", () => {
  test("a forgotten or superseded memory gets no outcome; the others do", () =>
    given(...memories, forgotten(A), superseded(B, C))
      .when(settle("done", linked(A, B, C)))
      .then([outcome([C], "worked", { task: "beads:bd-12", note: "done: Fix login" })], { memoryIds: [C] }))

  test("when none is live any more, nothing is recorded", () =>
    given(...memories, forgotten(A)).when(settle("done", linked(A, memoryId(99)))).then([], { kind: "no-memories" }))
})
