/**
 * Protects `decideRevise` and `decideConfirm`: a revision records only what changed, and
 * neither command touches a memory that is missing, forgotten or superseded.
 */
import { describe, expect, test } from "vitest"
import { decideConfirm, decideRevise } from "../../src/commands/decide-memory.js"
import { InvalidContent, InvalidInput, MemoryIsForgotten, MemoryIsSuperseded, MemoryNotFound } from "../../src/domain/errors.js"
import { given } from "../support/decider-spec.js"
import { added, confirmed, conversationForgotten, forgotten, restored, revised, superseded } from "../support/events.js"
import { memoryId } from "../support/ids.js"
import { from } from "../support/stored.js"

const A = memoryId(1)
const B = memoryId(2)

describe("decideRevise", () => {
  const base = added(A, "use tabs", { category: "convention", tags: ["style"] })

  test("records only the fields that changed", () =>
    given(base)
      .when((s) => decideRevise({ memoryId: A, content: "use spaces", category: "convention", tags: ["style"] }, s))
      .then([revised(A, { content: "use spaces" })], { id: A, changed: true }))

  test("records category and tags together, tags de-duplicated", () =>
    given(base)
      .when((s) => decideRevise({ memoryId: A, category: "decision", tags: ["style", "go", "go"] }, s))
      .then([revised(A, { category: "decision", tags: ["style", "go"] })]))

  test("records nothing when nothing changes", () =>
    given(base)
      .when((s) => decideRevise({ memoryId: A, content: "use tabs", tags: [" style", "style"] }, s))
      .then([], { id: A, changed: false }))

  test("compares with the memory as revised so far", () =>
    given(base, revised(A, { content: "use spaces" }))
      .when((s) => decideRevise({ memoryId: A, content: "use spaces" }, s))
      .then([]))

  test("refuses a blank tag and a tag over 100 characters, as add does", () => {
    given(base).when((s) => decideRevise({ memoryId: A, tags: ["style", " "] }, s)).thenFails(InvalidInput, { message: "tags: a tag cannot be empty or blank" })
    given(base).when((s) => decideRevise({ memoryId: A, tags: ["x".repeat(101)] }, s)).thenFails(InvalidInput, { message: expect.stringContaining("is 101 characters; a tag is at most 100") })
  })

  test("refuses empty content", () =>
    given(base).when((s) => decideRevise({ memoryId: A, content: "  " }, s)).thenFails(InvalidContent))

  test("refuses content over 10,000 characters", () =>
    given(base).when((s) => decideRevise({ memoryId: A, content: "y".repeat(10_001) }, s)).thenFails(InvalidContent))

  test("refuses a memory that does not exist", () =>
    given().when((s) => decideRevise({ memoryId: A, content: "x" }, s)).thenFails(MemoryNotFound, { id: A }))

  test("refuses a forgotten memory", () =>
    given(base, forgotten(A))
      .when((s) => decideRevise({ memoryId: A, content: "x" }, s))
      .thenFails(MemoryIsForgotten, { id: A, action: "be edited" }))

  test("accepts a memory forgotten and then restored", () =>
    given(base, forgotten(A), restored(A))
      .when((s) => decideRevise({ memoryId: A, content: "x" }, s))
      .then([revised(A, { content: "x" })]))

  test("refuses a superseded memory", () =>
    given(base, added(B, "use spaces"), superseded(A, B))
      .when((s) => decideRevise({ memoryId: A, content: "x" }, s))
      .thenFails(MemoryIsSuperseded, { id: A, by: B }))
})

describe("decideConfirm", () => {
  test("records a MemoryConfirmed and counts the confirmation", () =>
    given(added(A, "use tabs"), confirmed(A))
      .when((s) => decideConfirm(A, s))
      .then([confirmed(A)], { id: A, stored: false, confirmations: 3 }))

  test("refuses a memory that does not exist", () =>
    given().when((s) => decideConfirm(A, s)).thenFails(MemoryNotFound, { id: A }))

  test("refuses a forgotten memory", () =>
    given(added(A, "x"), forgotten(A)).when((s) => decideConfirm(A, s)).thenFails(MemoryIsForgotten, { id: A }))

  test("refuses a superseded memory", () =>
    given(added(A, "x"), added(B, "y"), superseded(A, B))
      .when((s) => decideConfirm(A, s))
      .thenFails(MemoryIsSuperseded, { id: A, by: B }))

  test("treats a memory of a forgotten conversation as not found", () =>
    given(from("codex:thread/7", added(A, "x")), conversationForgotten("codex:thread/7"))
      .when((s) => decideConfirm(A, s))
      .thenFails(MemoryNotFound, { id: A }))
})

test("the error messages name the memory and say what to do", () => {
  expect(new MemoryIsForgotten({ id: A, action: "be edited" }).message).toContain(`mem restore ${A}`)
  expect(new MemoryIsSuperseded({ id: A, by: B }).message).toContain(B)
})
