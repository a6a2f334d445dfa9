/**
 * Protects `decideAdd`: what a new memory records, when a restatement becomes a confirmation
 * instead of a copy, how confirms/supersedes/distinct_from relations are recorded,
 * and every reason an add is refused.
 */
import { describe, expect, test } from "vitest"
import { decideAdd, type AddMemory } from "../../src/commands/decide-memory.js"
import { InvalidContent, InvalidInput, MemoryIsForgotten, MemoryIsSuperseded, MemoryNotFound } from "../../src/domain/errors.js"
import type { MemoryId } from "../../src/domain/ids.js"
import { given } from "../support/decider-spec.js"
import { added, confirmed, conversationForgotten, forgotten, markedDistinct, superseded } from "../support/events.js"
import { memoryId } from "../support/ids.js"
import { from } from "../support/stored.js"

const A = memoryId(1)
const B = memoryId(2)
const NEW = memoryId(9)

const add = (content: string, fields: Partial<AddMemory> = {}): AddMemory => ({
  memoryId: NEW,
  content,
  category: "general",
  scope: "global",
  project: null,
  tags: [],
  source: "explicit",
  status: "confirmed",
  confidence: 0.9,
  ...fields
})

const relate = (kind: "confirms" | "supersedes" | "distinct_from", id: MemoryId) => ({ relation: { kind, id } })

describe("decideAdd records a new memory", () => {
  test("as one MemoryAdded carrying every field", () =>
    given()
      .when((s) => decideAdd(add("Use pnpm, not npm", { category: "convention", tags: ["js"], createdAt: "2024-05-01T00:00:00Z" }), s))
      .then([added(NEW, "Use pnpm, not npm", { category: "convention", tags: ["js"], createdAt: "2024-05-01T00:00:00Z" })], {
        id: NEW,
        stored: true
      }))

  test("with tags trimmed and de-duplicated", () =>
    given()
      .when((s) => decideAdd(add("tags", { tags: [" a", "a ", "b"] }), s))
      .then([added(NEW, "tags", { tags: ["a", "b"] })]))

  test("with content and tags of exactly their limits counted in characters, emoji being one each", () =>
    given()
      .when((s) => decideAdd(add("😀".repeat(10_000), { tags: ["🏷".repeat(100)] }), s))
      .then([added(NEW, "😀".repeat(10_000), { tags: ["🏷".repeat(100)] })]))

  test("a global memory drops the project it was given", () =>
    given()
      .when((s) => decideAdd(add("global rule", { project: "github.com/acme/app" }), s))
      .then([added(NEW, "global rule", { project: null })]))

  test("content of exactly 10,000 characters is accepted", () =>
    given()
      .when((s) => decideAdd(add("x".repeat(10_000)), s))
      .then([added(NEW, "x".repeat(10_000))]))
})

describe("decideAdd refuses", () => {
  test("empty content", () => given().when((s) => decideAdd(add(""), s)).thenFails(InvalidContent))
  test("white-space-only content", () => given().when((s) => decideAdd(add(" \n\t "), s)).thenFails(InvalidContent))
  test("content over 10,000 characters", () =>
    given()
      .when((s) => decideAdd(add("x".repeat(10_001)), s))
      .thenFails(InvalidContent, { reason: expect.stringContaining("10001") }))
  test("content over 10,000 characters counted as characters, not UTF-16 units", () =>
    given()
      .when((s) => decideAdd(add("😀".repeat(10_001)), s))
      .thenFails(InvalidContent, { reason: "the content is 10001 characters; the limit is 10000" }))
  test("an empty tag, as a blank one: neither is silently dropped", () => {
    given().when((s) => decideAdd(add("tags", { tags: ["a", ""] }), s)).thenFails(InvalidInput, { message: "tags: a tag cannot be empty or blank" })
    given().when((s) => decideAdd(add("tags", { tags: ["  "] }), s)).thenFails(InvalidInput, { message: "tags: a tag cannot be empty or blank" })
  })
  test("a tag over 100 characters rather than cutting it, quoting at most 80 of them", () =>
    given()
      .when((s) => decideAdd(add("tags", { tags: ["t".repeat(20_000)] }), s))
      .thenFails(InvalidInput, { message: `tags: "${"t".repeat(80)}…" is 20000 characters; a tag is at most 100` }))
  test("more than 50 tags", () =>
    given()
      .when((s) => decideAdd(add("tags", { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), s))
      .thenFails(InvalidInput, { message: "tags: 51 tags; the limit is 50" }))
  test("a project memory without a project", () =>
    given()
      .when((s) => decideAdd(add("needs a project", { scope: "project", project: null }), s))
      .thenFails(InvalidInput))
  test("a relation to a memory that does not exist", () =>
    given()
      .when((s) => decideAdd(add("new", relate("supersedes", A)), s))
      .thenFails(MemoryNotFound, { id: A }))
  test("a relation to a forgotten memory", () =>
    given(added(A, "old"), forgotten(A))
      .when((s) => decideAdd(add("new", relate("confirms", A)), s))
      .thenFails(MemoryIsForgotten, { id: A }))
  test("a relation to a superseded memory", () =>
    given(added(A, "old"), added(B, "newer"), superseded(A, B))
      .when((s) => decideAdd(add("new", relate("distinct_from", A)), s))
      .thenFails(MemoryIsSuperseded, { id: A, by: B }))
  test("a relation to a memory of a forgotten conversation, as not found", () =>
    given(from("codex:thread/1", added(A, "old")), conversationForgotten("codex:thread/1"))
      .when((s) => decideAdd(add("new", relate("confirms", A)), s))
      .thenFails(MemoryNotFound, { id: A }))
})

describe("decideAdd turns a restatement into a confirmation", () => {
  test("same text after folding case, spaces and end punctuation confirms the existing memory", () =>
    given(added(A, "Run  the tests with vitest."))
      .when((s) => decideAdd(add("run the tests WITH vitest!!"), s))
      .then([confirmed(A)], { id: A, stored: false, confirmations: 2 }))

  test("within the same project", () =>
    given(added(A, "use tabs", { scope: "project", project: "github.com/acme/app" }))
      .when((s) => decideAdd(add("Use tabs", { scope: "project", project: "github.com/acme/app" }), s))
      .then([confirmed(A)]))

  test("but not across projects", () =>
    given(added(A, "use tabs", { scope: "project", project: "github.com/acme/app" }))
      .when((s) => decideAdd(add("use tabs", { scope: "project", project: "github.com/acme/other" }), s))
      .then([added(NEW, "use tabs", { scope: "project", project: "github.com/acme/other" })]))

  test("but not across scopes", () =>
    given(added(A, "use tabs"))
      .when((s) => decideAdd(add("use tabs", { scope: "project", project: "github.com/acme/app" }), s))
      .then([added(NEW, "use tabs", { scope: "project", project: "github.com/acme/app" })]))

  test("but a forgotten memory is not restated: the text is stored anew", () =>
    given(added(A, "use tabs"), forgotten(A))
      .when((s) => decideAdd(add("use tabs"), s))
      .then([added(NEW, "use tabs")]))

  test("but a superseded memory is not restated", () =>
    given(added(A, "use tabs"), added(B, "use spaces"), superseded(A, B))
      .when((s) => decideAdd(add("use tabs"), s))
      .then([added(NEW, "use tabs")]))

  test("but a memory of a forgotten conversation is not restated", () =>
    given(from("codex:thread/1", added(A, "use tabs")), conversationForgotten("codex:thread/1"))
      .when((s) => decideAdd(add("use tabs"), s))
      .then([added(NEW, "use tabs")]))

  test("and a different text is a new memory", () =>
    given(added(A, "use tabs"))
      .when((s) => decideAdd(add("use tabs for Go"), s))
      .then([added(NEW, "use tabs for Go")]))
})

describe("decideAdd records the relation the caller chose", () => {
  test("confirms: a MemoryConfirmed of the target, whatever the new text", () =>
    given(added(A, "deploy with make deploy"))
      .when((s) => decideAdd(add("make deploy ships it", relate("confirms", A)), s))
      .then([confirmed(A)], { id: A, stored: false, confirmations: 2 }))

  test("supersedes: the new memory, then the old one superseded by it", () =>
    given(added(A, "node 18"))
      .when((s) => decideAdd(add("node 20", relate("supersedes", A)), s))
      .then([added(NEW, "node 20"), superseded(A, NEW)], { id: NEW, stored: true }))

  test("supersedes, when the text restates another memory: that one confirmed, and it supersedes the old", () =>
    given(added(A, "node 18"), added(B, "node 20"))
      .when((s) => decideAdd(add("Node 20.", relate("supersedes", A)), s))
      .then([confirmed(B), superseded(A, B)], { id: B, stored: false }))

  test("supersedes, when the text restates the old memory itself: only a confirmation", () =>
    given(added(A, "node 18"))
      .when((s) => decideAdd(add("node 18", relate("supersedes", A)), s))
      .then([confirmed(A)]))

  test("distinct_from, when the text restates another memory: that one confirmed and marked distinct", () => {
    given(added(A, "staging db"), added(B, "prod db"))
      .when((s) => decideAdd(add("prod db", relate("distinct_from", A)), s))
      .then([confirmed(B), markedDistinct(B, A)])
    given(added(A, "staging db"), added(B, "prod db"), markedDistinct(A, B))
      .when((s) => decideAdd(add("prod db", relate("distinct_from", A)), s))
      .then([confirmed(B)])
  })

  test("distinct_from: the new memory, then both marked distinct", () =>
    given(added(A, "staging db is postgres"))
      .when((s) => decideAdd(add("prod db is postgres", relate("distinct_from", A)), s))
      .then([added(NEW, "prod db is postgres"), markedDistinct(NEW, A)]))
})
