/**
 * The outcome-score facts of docs/ranking.md, through the real services with an injected clock:
 * one success 0.33, ten 0.83, one failure -0.43 and still recalled, two failures -0.6 and
 * gated, and back by themselves after about 53 days. On every store.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { actor, Commands, DAY, describeEachStore, Retrieval, runAt, T0, type ServiceStore } from "../support/services.js"

const BRIEF = { ...DEFAULT_CONFIG, probation: false, contradictionDiscount: 1 }
const project = "github.com/acme/app"

/** A store with one memory about deploying, and `outcomes` recorded at T0. */
const storeWith = async (store: ServiceStore, outcomes: ReadonlyArray<"worked" | "failed">) => {
  const db = await store.fresh()
  const id = await runAt(
    db,
    T0,
    Effect.gen(function* () {
      const c = yield* Commands
      const { id } = yield* c.add({ content: "Deploy with make deploy ENV=prod", category: "command", scope: "project", project }, actor)
      for (const o of outcomes) yield* c.outcome([id], o, {}, actor)
      return id
    }),
    BRIEF
  )
  return { db, id }
}

const whyAt = (db: string, ms: number) => runAt(db, ms, Effect.flatMap(Retrieval, (r) => r.why({ query: "how do I deploy", project })), BRIEF)

describeEachStore((store) => {
  describe("outcome reference values", () => {
    it.each([
      [["worked"], 0.33],
      [Array(10).fill("worked"), 0.83],
      [["failed"], -0.43]
    ] as const)("%j scores %d and is recalled", async (outcomes, expected) => {
      const { db, id } = await storeWith(store, outcomes)
      const why = await whyAt(db, T0)
      expect(why.results.map((r) => r.memory.id)).toEqual([id])
      expect(why.results[0]!.terms.outcome.score).toBeCloseTo(expected, 2)
    })

    it("two failures score -0.6 and are gated", async () => {
      const { db, id } = await storeWith(store, ["failed", "failed"])
      const why = await whyAt(db, T0)
      expect(why.results).toEqual([])
      const gated = why.leftOut.find((l) => l.id === id)!
      expect(gated.stage).toBe("gate")
      expect(gated.outcome!.score).toBeCloseTo(-0.6, 2)
    })

    it("two failures come back by themselves after about 53 days", async () => {
      const { db, id } = await storeWith(store, ["failed", "failed"])
      expect((await whyAt(db, T0 + 52 * DAY)).results).toEqual([])
      const back = await whyAt(db, T0 + 53 * DAY)
      expect(back.results.map((r) => r.memory.id)).toEqual([id])
      expect(back.results[0]!.terms.outcome.score).toBeGreaterThan(-0.5)
    })

    it("weighs each outcome event by its decay, and the weights add up to the counts", async () => {
      const { db } = await storeWith(store, ["worked", "worked", "failed"])
      const why = await whyAt(db, T0 + 90 * DAY)
      const r = why.results[0]!
      const sum = (counts: string) => r.events.outcome.filter((e) => e.counts === counts).reduce((s, e) => s + e.weight, 0)
      expect(r.events.outcome.map((e) => e.weight)).toEqual([0.5, 0.5, 0.5].map((w) => expect.closeTo(w, 12)))
      expect(sum("worked")).toBeCloseTo(r.terms.outcome.worked, 12)
      expect(sum("failed")).toBeCloseTo(r.terms.outcome.failed, 12)
    })
  })

  describe("probation", () => {
    it("admits the best gated memory when nothing in the pool has a non-negative record", async () => {
      const { db, id } = await storeWith(store, ["failed", "failed"])
      const why = await runAt(db, T0, Effect.flatMap(Retrieval, (r) => r.why({ query: "deploy", project })), { ...BRIEF, probation: true })
      expect(why.results.map((r) => [r.memory.id, r.probation])).toEqual([[id, true]])
    })
  })
})
