/**
 * Protects `decideSupersede` and `decideMarkDistinct`: the relation recorded between two
 * memories, and the refusals (self, missing, forgotten, already superseded).
 */
import { describe, test } from "vitest"
import { decideMarkDistinct, decideSupersede } from "../../src/commands/decide-memory.js"
import { InvalidInput, MemoryIsForgotten, MemoryIsSuperseded, MemoryNotFound, SupersedeSelf } from "../../src/domain/errors.js"
import { given } from "../support/decider-spec.js"
import { added, forgotten, markedDistinct, superseded } from "../support/events.js"
import { memoryId } from "../support/ids.js"

const A = memoryId(1)
const B = memoryId(2)
const C = memoryId(3)
const both = [added(A, "node 18"), added(B, "node 20")] as const

describe("decideSupersede", () => {
  test("records the old memory superseded by the new one", () =>
    given(...both).when((s) => decideSupersede(A, B, s)).then([superseded(A, B)], { id: A, supersededBy: B }))

  test("refuses a memory superseding itself", () =>
    given(...both).when((s) => decideSupersede(A, A, s)).thenFails(SupersedeSelf, { id: A }))

  test("refuses when the old memory does not exist", () =>
    given(added(B, "node 20")).when((s) => decideSupersede(A, B, s)).thenFails(MemoryNotFound, { id: A }))

  test("refuses when the new memory does not exist", () =>
    given(added(A, "node 18")).when((s) => decideSupersede(A, B, s)).thenFails(MemoryNotFound, { id: B }))

  test("refuses an old memory that is already superseded", () =>
    given(...both, added(C, "node 22"), superseded(A, C))
      .when((s) => decideSupersede(A, B, s))
      .thenFails(MemoryIsSuperseded, { id: A, by: C }))

  test("refuses a new memory that is itself superseded", () =>
    given(...both, added(C, "node 22"), superseded(B, C))
      .when((s) => decideSupersede(A, B, s))
      .thenFails(MemoryIsSuperseded, { id: B, by: C }))

  test("refuses a forgotten old memory", () =>
    given(...both, forgotten(A)).when((s) => decideSupersede(A, B, s)).thenFails(MemoryIsForgotten, { id: A }))

  test("refuses a forgotten new memory", () =>
    given(...both, forgotten(B)).when((s) => decideSupersede(A, B, s)).thenFails(MemoryIsForgotten, { id: B }))
})

describe("decideMarkDistinct", () => {
  test("records the pair as distinct", () =>
    given(...both).when((s) => decideMarkDistinct(A, B, s)).then([markedDistinct(A, B)], { id: A, distinctFrom: B }))

  test("records nothing when the pair is already distinct, in either order", () =>
    given(...both, markedDistinct(A, B)).when((s) => decideMarkDistinct(B, A, s)).then([]))

  test("refuses a memory distinct from itself", () =>
    given(...both).when((s) => decideMarkDistinct(A, A, s)).thenFails(InvalidInput))

  test("refuses when either memory does not exist", () => {
    given(added(A, "x")).when((s) => decideMarkDistinct(A, B, s)).thenFails(MemoryNotFound, { id: B })
    given(added(B, "x")).when((s) => decideMarkDistinct(A, B, s)).thenFails(MemoryNotFound, { id: A })
  })

  test("accepts a forgotten memory: telling two apart is still true of an archived one", () =>
    given(...both, forgotten(B)).when((s) => decideMarkDistinct(A, B, s)).then([markedDistinct(A, B)]))
})
