/**
 * Properties over generated stores and queries: `why` returns the very ranking `search` does
 * (ids, order, scores); the score terms add up to the score; a replayed log ranks identically;
 * forgetting a conversation removes its outcomes from every score. On every store.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { DEFAULT_CONFIG, type LedgerConfig } from "../../src/config.js"
import type { Outcome } from "../../src/domain/vocabulary.js"
import { tempDir } from "../support/cli.js"
import { actor, Commands, DAY, describeEachStore, fixedClock, Maintenance, Retrieval, runAt, T0, type ServiceStore } from "../support/services.js"

const WORDS = ["deploy", "test", "database", "migration", "cache", "build", "lint", "docker", "retry", "timeout", "schema", "token"]
const PROJECTS = ["github.com/a/one", "github.com/b/two", null]
const ORIGINS = ["s1", "s2", "s3"]

const memoryArb = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }),
  project: fc.constantFrom(...PROJECTS),
  ageDays: fc.integer({ min: 0, max: 200 })
})
const outcomeArb = fc.record({
  memory: fc.nat(),
  outcome: fc.constantFrom<Outcome>("worked", "failed", "partial"),
  origin: fc.constantFrom(...ORIGINS),
  dayOffset: fc.integer({ min: 0, max: 150 })
})
const storeArb = fc.record({
  memories: fc.array(memoryArb, { minLength: 1, maxLength: 25 }),
  outcomes: fc.array(outcomeArb, { maxLength: 40 }),
  queries: fc.array(fc.array(fc.constantFrom(...WORDS, "unknownword"), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
  limit: fc.integer({ min: 1, max: 8 }),
  project: fc.constantFrom(...PROJECTS)
})
type StoreSpec = typeof storeArb extends fc.Arbitrary<infer T> ? T : never

const NOW = T0 + 400 * DAY

/** Builds the store in time order, each write at its own time: memories first (each at its age), then outcomes. */
const build = async (store: ServiceStore, spec: StoreSpec, config: LedgerConfig = DEFAULT_CONFIG, skipOrigin?: string) => {
  const db = await store.fresh()
  const ids = await runAt(
    db,
    T0,
    Effect.gen(function* () {
      const c = yield* Commands
      const ids: string[] = []
      for (const [i, m] of spec.memories.entries()) {
        const content = `${m.words.join(" ")} note ${i}`
        const added = yield* c
          .add({ content, scope: m.project === null ? "global" : "project", project: m.project }, actor)
          .pipe(Effect.withClock(fixedClock(T0 + (200 - m.ageDays) * DAY + i)))
        ids.push(added.id)
      }
      for (const o of spec.outcomes) {
        if (o.origin === skipOrigin) continue
        const id = ids[o.memory % ids.length]!
        yield* c.outcome([id], o.outcome, {}, { origin: o.origin, agent: "t" }).pipe(Effect.withClock(fixedClock(T0 + 200 * DAY + o.dayOffset * DAY)))
      }
      return ids
    }),
    config
  )
  return { db, ids }
}

const rankings = (db: string, spec: StoreSpec, config: LedgerConfig = DEFAULT_CONFIG) =>
  runAt(
    db,
    NOW,
    Effect.gen(function* () {
      const r = yield* Retrieval
      const out = []
      for (const words of spec.queries) {
        const input = { query: words.join(" "), project: spec.project, limit: spec.limit }
        const why = yield* r.why(input)
        const search = yield* r.search(input, actor)
        out.push({ why, search })
      }
      return out
    }),
    config
  )

const scoreList = (results: ReadonlyArray<{ memory: { id: string }; score: number }>) => results.map((r) => [r.memory.id, r.score] as const)

describeEachStore((store) => {
  describe("search and why", () => {
    it("agree on ids, order and scores, and the terms add up to each score", async () => {
      await fc.assert(
        fc.asyncProperty(storeArb, async (spec) => {
          const { db } = await build(store, spec)
          for (const { why, search } of await rankings(db, spec)) {
            expect(scoreList(why.results)).toEqual(scoreList(search.results))
            for (const r of why.results) {
              const t = r.terms
              const total = t.relevance.contribution + t.outcome.contribution + t.recency.contribution + t.confidence.contribution + t.frequency.contribution
              expect(total).toBeCloseTo(r.score, 12)
            }
            // Nothing is both a result and left out.
            const shown = new Set<string>(why.results.map((r) => r.memory.id))
            expect(why.leftOut.filter((l) => shown.has(l.id))).toEqual([])
          }
        }),
        { numRuns: store.propertyRuns(12) }
      )
    })

    it("rank identically after the log is exported and replayed into a fresh store", async () => {
      await fc.assert(
        fc.asyncProperty(storeArb, async (spec) => {
          const { db } = await build(store, spec)
          const file = join(tempDir(), "log.jsonl")
          await runAt(db, NOW, Effect.flatMap(Maintenance, (m) => m.exportTo(file)))
          const replayed = await store.fresh()
          await runAt(replayed, NOW, Effect.flatMap(Maintenance, (m) => m.replay(readFileSync(file, "utf8"))))
          const [a, b] = [await rankings(db, spec), await rankings(replayed, spec)]
          expect(b.map((x) => scoreList(x.why.results))).toEqual(a.map((x) => scoreList(x.why.results)))
        }),
        { numRuns: store.propertyRuns(8) }
      )
    })

    it("forgetting a conversation removes its outcomes from every score", async () => {
      await fc.assert(
        fc.asyncProperty(storeArb, fc.constantFrom(...ORIGINS), async (spec, origin) => {
          const { db } = await build(store, spec)
          if (spec.outcomes.some((o) => o.origin === origin)) {
            await runAt(db, NOW, Effect.flatMap(Commands, (c) => c.forgetConversation(origin, false, actor)))
          }
          const { db: without } = await build(store, spec, DEFAULT_CONFIG, origin)
          const [a, b] = [await rankings(db, spec), await rankings(without, spec)]
          // Ids differ between the two stores; compare by content, scores and outcome events' origins.
          const view = (x: (typeof a)[number]) =>
            x.why.results.map((r) => [r.memory.content, r.score, r.events.outcome.map((e) => e.origin).includes(origin)])
          expect(a.map(view)).toEqual(b.map(view))
        }),
        { numRuns: store.propertyRuns(8) }
      )
    })
  })
})
