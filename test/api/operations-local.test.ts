/**
 * The Operations service over a real store: what every surface (MCP, REST, SDK) gets. The
 * near-duplicate check on write is tested here, where it is decided. On every store.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Operations, RESOLVE_SIMILAR, type Caller } from "../../src/api/operations.js"
import { T0, describeEachStore, runAt } from "../support/services.js"

const caller: Caller = { origin: "mcp:test/session-1", agent: "test-client", project: "github.com/acme/shop" }
const ops = <A, E>(f: (o: Effect.Effect.Success<typeof Operations>) => Effect.Effect<A, E>) => Effect.flatMap(Operations, f)

describeEachStore((store) => {
  describe("remember", () => {
    it("stores, confirms an exact restatement, and refuses a near-duplicate until the caller says how they relate", async () => {
      const db = await store.fresh()
      const first = await runAt(db, T0, ops((o) => o.remember({ content: "Run the integration tests with npm run test:int before pushing" }, caller)))
      expect(first).toMatchObject({ stored: true })
      if (!("id" in first)) throw new Error("expected an id")

      const again = await runAt(db, T0, ops((o) => o.remember({ content: "run the integration tests with npm run test:int before pushing." }, caller)))
      expect(again).toMatchObject({ stored: false, confirmed: true, id: first.id, confirmations: 2 })

      const similar = await runAt(db, T0, ops((o) => o.remember({ content: "Before pushing, run integration tests using npm run test:int" }, caller)))
      expect(similar).toMatchObject({ stored: false, reason: "similar memories exist", resolve: RESOLVE_SIMILAR })
      if (!("similar" in similar)) throw new Error("expected similar memories")
      expect(similar.similar.map((s) => s.id)).toEqual([first.id])
      expect(similar.similar[0]!.similarity).toBeGreaterThanOrEqual(0.6)

      const distinct = await runAt(db, T0, ops((o) => o.remember({ content: "Before pushing, run integration tests using npm run test:int", distinct_from: first.shortId }, caller)))
      expect(distinct).toMatchObject({ stored: true })

      const listed = await runAt(db, T0, ops((o) => o.list({}, caller)))
      expect(listed.memories).toHaveLength(2)
      const stored = listed.memories.find((m) => m.content.startsWith("Before"))!
      expect(stored).toMatchObject({ project: caller.project, scope: "project", origin: caller.origin, agent: caller.agent, distinctFrom: [first.id] })
    })

    it("stores unrelated memories without asking, and global ones when there is no current project", async () => {
      const db = await store.fresh()
      const noProject: Caller = { ...caller, project: null }
      await runAt(db, T0, ops((o) => o.remember({ content: "Use pnpm, never npm, in the web app" }, noProject)))
      const other = await runAt(db, T0, ops((o) => o.remember({ content: "Postgres migrations live in db/migrate and run with make migrate" }, noProject)))
      expect(other).toMatchObject({ stored: true })
      const listed = await runAt(db, T0, ops((o) => o.list({}, noProject)))
      expect(listed.memories.map((m) => m.scope)).toEqual(["global", "global"])
    })
  })

  describe("recall, outcomes and the record", () => {
    it("returns ranked memories with their records, and an outcome changes the record", async () => {
      const db = await store.fresh()
      const added = await runAt(db, T0, ops((o) => o.remember({ content: "Deploy with fly deploy --strategy bluegreen", category: "command" }, caller)))
      if (!("id" in added)) throw new Error("expected an id")
      await runAt(db, T0, ops((o) => o.recordOutcome({ memory_ids: [added.shortId], outcome: "worked", task: "beads:bd-1" }, caller)))
      const recalled = await runAt(db, T0, ops((o) => o.recall({ query: "how do I deploy" }, caller)))
      expect(recalled.results).toHaveLength(1)
      const [hit] = recalled.results
      expect(hit).toMatchObject({ id: added.id, rank: 1, record: { workedCount: 1, failedCount: 0, gated: false } })
      expect(hit!.record.score).toBeCloseTo(1 / 3, 5)
      const sum = Object.values(hit!.terms).reduce((s, t) => s + t.contribution, 0)
      expect(sum).toBeCloseTo(hit!.score, 10)

      const log = await runAt(db, T0, ops((o) => o.log({}, caller)))
      expect(log.events.map((e) => e.type)).toEqual(["MemoryAdded", "OutcomeRecorded", "MemoriesRecalled"])
      expect(log.next).toBeNull()
      const page = await runAt(db, T0, ops((o) => o.log({ limit: 2 }, caller)))
      expect(page.next).toBe(page.events[1]!.seq)
    })

    it("fails with the domain error's tag for an unknown id", async () => {
      const db = await store.fresh()
      const exit = await runAt(db, T0, Effect.either(ops((o) => o.getMemory({ id: "ZZZZZZZZ" }, caller))))
      expect(exit._tag).toBe("Left")
      if (exit._tag === "Left") expect(exit.left._tag).toBe("MemoryNotFound")
    })
  })
})
