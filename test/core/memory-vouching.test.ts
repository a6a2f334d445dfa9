/**
 * Protects what the memories projection knows about who stands behind a memory's current text:
 * whether a person confirmed it (the command line or REST without an agent's name or
 * conversation) and in how many distinct conversations it was stated (two are enough to know).
 * New text from an agent stands on its own again.
 */
import { describe, expect, test } from "vitest"
import { evolveMemory, type MemoryState } from "../../src/projections/memory-state.js"
import { added, confirmed, revised } from "../support/events.js"
import { memoryId } from "../support/ids.js"
import { toStored, type Given, type GivenLike } from "../support/stored.js"

const A = memoryId(1)
const agent = (session: string, event: Given["event"]): Given => ({ event, origin: `claude-code:session/${session}`, agent: "claude-code" })

const fold = (...history: GivenLike[]): MemoryState | undefined =>
  toStored(history).reduce<MemoryState | undefined>((state, stored) => evolveMemory(state, stored, A), undefined)

describe("who stands behind a memory", () => {
  test("a person writing on the command line or over REST confirms it", () => {
    expect(fold({ event: added(A, "Use pnpm"), origin: "cli", agent: "cli" })).toMatchObject({ confirmedByPerson: true, statedIn: ["cli"] })
    expect(fold({ event: added(A, "Use pnpm"), origin: "rest", agent: "rest" })).toMatchObject({ confirmedByPerson: true })
  })

  test("an agent does not, even under the command line's origin or agent", () => {
    expect(fold(agent("a", added(A, "Use pnpm")))).toMatchObject({ confirmedByPerson: false, statedIn: ["claude-code:session/a"] })
    expect(fold({ event: added(A, "Use pnpm"), origin: "cli", agent: "claude-code" })).toMatchObject({ confirmedByPerson: false })
    expect(fold({ event: added(A, "Use pnpm"), origin: "codex:thread/x", agent: "cli" })).toMatchObject({ confirmedByPerson: false })
  })

  test("counts distinct conversations, up to the two a rule needs", () => {
    expect(fold(agent("a", added(A, "Use pnpm")), agent("a", confirmed(A)))).toMatchObject({ statedIn: ["claude-code:session/a"], confirmations: 2 })
    const three = fold(agent("a", added(A, "Use pnpm")), agent("b", confirmed(A)), agent("c", confirmed(A)))
    expect(three).toMatchObject({ statedIn: ["claude-code:session/a", "claude-code:session/b"], confirmedByPerson: false, confirmations: 3 })
  })

  test("a person's later confirmation counts", () => {
    expect(fold(agent("a", added(A, "Use pnpm")), { event: confirmed(A), origin: "cli", agent: "cli" })).toMatchObject({ confirmedByPerson: true })
  })

  test("new text stands on its own; other revisions keep who stood behind it", () => {
    const person = { event: added(A, "Tag releases from main"), origin: "cli", agent: "cli" }
    expect(fold(person, agent("a", revised(A, { content: "Tag releases from any branch" })))).toMatchObject({
      confirmedByPerson: false,
      statedIn: ["claude-code:session/a"]
    })
    expect(fold(person, agent("a", revised(A, { category: "convention" })))).toMatchObject({ confirmedByPerson: true, statedIn: ["cli"] })
  })
})
