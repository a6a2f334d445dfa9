/** Protects `decideOutcome`: one OutcomeRecorded over distinct live memories, or a refusal. */
import { test } from "vitest"
import { decideOutcome } from "../../src/commands/decide-outcome.js"
import { InvalidInput, MemoryIsForgotten, MemoryIsSuperseded, MemoryNotFound } from "../../src/domain/errors.js"
import { given } from "../support/decider-spec.js"
import { added, forgotten, outcome, superseded } from "../support/events.js"
import { memoryId } from "../support/ids.js"

const A = memoryId(1)
const B = memoryId(2)
const C = memoryId(3)
const two = [added(A, "x"), added(B, "y")] as const

test("records one OutcomeRecorded for every memory named", () =>
  given(...two)
    .when((s) => decideOutcome({ memoryIds: [A, B], outcome: "worked" }, s))
    .then([outcome([A, B], "worked")], { memoryIds: [A, B], outcome: "worked" }))

test("names each memory once", () =>
  given(...two).when((s) => decideOutcome({ memoryIds: [B, A, B], outcome: "failed" }, s)).then([outcome([B, A], "failed")]))

test("carries the task and the note", () =>
  given(...two)
    .when((s) => decideOutcome({ memoryIds: [A], outcome: "partial", task: "T-1", note: "half" }, s))
    .then([outcome([A], "partial", { task: "T-1", note: "half" })]))

test("refuses an outcome for no memory", () =>
  given(...two).when((s) => decideOutcome({ memoryIds: [], outcome: "worked" }, s)).thenFails(InvalidInput))

test("refuses the whole outcome when one memory does not exist", () =>
  given(...two).when((s) => decideOutcome({ memoryIds: [A, C], outcome: "worked" }, s)).thenFails(MemoryNotFound, { id: C }))

test("refuses a forgotten memory", () =>
  given(...two, forgotten(B))
    .when((s) => decideOutcome({ memoryIds: [A, B], outcome: "worked" }, s))
    .thenFails(MemoryIsForgotten, { id: B }))

test("refuses a superseded memory", () =>
  given(...two, superseded(A, B))
    .when((s) => decideOutcome({ memoryIds: [A], outcome: "worked" }, s))
    .thenFails(MemoryIsSuperseded, { id: A, by: B }))
