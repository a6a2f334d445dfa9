/** Protects `decideForget` and `decideRestore`: both idempotent, both refuse a missing memory. */
import { describe, test } from "vitest"
import { decideForget, decideRestore } from "../../src/commands/decide-memory.js"
import { MemoryNotFound } from "../../src/domain/errors.js"
import { given } from "../support/decider-spec.js"
import { added, forgotten, restored, superseded } from "../support/events.js"
import { memoryId } from "../support/ids.js"

const A = memoryId(1)
const B = memoryId(2)

describe("decideForget", () => {
  test("records a MemoryForgotten with the reason", () =>
    given(added(A, "x"))
      .when((s) => decideForget(A, "wrong", s))
      .then([forgotten(A, "wrong")], { id: A, forgotten: true, changed: true }))

  test("is idempotent: forgetting a forgotten memory records nothing and is no error", () =>
    given(added(A, "x"), forgotten(A))
      .when((s) => decideForget(A, "again", s))
      .then([], { id: A, forgotten: true, changed: false }))

  test("forgets a superseded memory too", () =>
    given(added(A, "x"), added(B, "y"), superseded(A, B)).when((s) => decideForget(A, "r", s)).then([forgotten(A, "r")]))

  test("refuses a memory that does not exist", () =>
    given().when((s) => decideForget(A, "r", s)).thenFails(MemoryNotFound, { id: A }))
})

describe("decideRestore", () => {
  test("records a MemoryRestored for a forgotten memory", () =>
    given(added(A, "x"), forgotten(A))
      .when((s) => decideRestore(A, "back", s))
      .then([restored(A, "back")], { id: A, forgotten: false, changed: true }))

  test("is idempotent: restoring a live memory records nothing and is no error", () =>
    given(added(A, "x")).when((s) => decideRestore(A, "r", s)).then([], { id: A, forgotten: false, changed: false }))

  test("is idempotent after a forget and a restore", () =>
    given(added(A, "x"), forgotten(A), restored(A)).when((s) => decideRestore(A, "r", s)).then([]))

  test("refuses a memory that does not exist", () =>
    given().when((s) => decideRestore(A, "r", s)).thenFails(MemoryNotFound, { id: A }))
})
