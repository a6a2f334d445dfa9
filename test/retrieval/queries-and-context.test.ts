/**
 * Whatever a query holds, search answers or says clearly what is wrong; context never exceeds
 * its budget, says what it left out, and injects nothing when nothing answers the query. On every
 * store, each kept open for the file's questions.
 */
import { Effect, Either } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { countTokens } from "../../src/retrieval/tokens.js"
import { actor, Commands, DAY, describeEachStore, openServices, person, Queries, Retrieval, T0 } from "../support/services.js"

const project = "github.com/acme/app"

describeEachStore((store) => {
  let services: ReturnType<typeof openServices>
  const runAt: (typeof services)["runAt"] = (atMs, program) => services.runAt(atMs, program)

  beforeAll(async () => {
    services = openServices(await store.fresh())
    await runAt(
      T0,
      Effect.gen(function* () {
        const c = yield* Commands
        yield* c.add({ content: "Run the unit tests with pnpm test before every push", category: "convention", scope: "project", project }, actor)
        yield* c.add({ content: "Always answer in English", category: "preference", scope: "global", project: null }, person)
        yield* c.add({ content: "The staging database is reset every night at 02:00 UTC", category: "gotcha", scope: "project", project }, actor)
        yield* c.add({ content: "Deploy with make deploy ENV=prod after the tests pass", category: "command", scope: "project", project }, actor)
        for (let i = 0; i < 40; i++) {
          yield* c.add({ content: `Note ${i} about the test fixtures in module ${i}: keep them small and deterministic`, scope: "project", project }, actor)
        }
      })
    )
  })
  afterAll(() => services.close())

  const search = (query: string) => runAt(T0 + DAY, Effect.either(Effect.flatMap(Retrieval, (r) => r.search({ query, project }, actor))))

  describe("query text", () => {
    it.each([
      ["quotes", '"unbalanced quote'],
      ["boolean operators", "tests AND push OR NOT deploy"],
      ["NEAR", "NEAR(tests push, 2)"],
      ["prefix, minus, caret, column filter, braces", "test* -deploy ^push content:tests {a b}"],
      ["emoji", "🦀 deploy 🚀"],
      ["SQL", "'; DROP TABLE memories; --"],
      ["10,000 characters", "x".repeat(10_000)],
      ["punctuation only", "!!! ??? ..."]
    ])("a query with %s gives a result, never a crash", async (_label, query) => {
      const result = await search(query)
      expect(Either.isRight(result)).toBe(true)
    })

    it("searches operator words as words", async () => {
      const result = await search("tests AND push")
      expect(Either.getOrThrow(result).results[0]!.memory.content).toMatch(/pnpm test before every push/)
    })

    it("refuses an empty query and one over 10,000 characters with a clear message", async () => {
      for (const query of ["", "   ", "x".repeat(10_001)]) {
        const result = await search(query)
        expect(Either.isLeft(result) && result.left._tag).toBe("InvalidInput")
      }
    })

    it("survives any generated text", async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ unit: "grapheme", maxLength: 200 }), async (query) => {
          const result = await search(query)
          if (Either.isLeft(result)) expect(result.left._tag).toBe("InvalidInput")
        }),
        { numRuns: 60 }
      )
    })
  })

  describe("context", () => {
    const context = (input: { query?: string; budget?: number }) =>
      runAt(T0 + DAY, Effect.flatMap(Retrieval, (r) => r.context({ project, ...input }, actor)))

    it("puts confirmed rules first and never exceeds the budget, saying how many it left out", async () => {
      for (const budget of [60, 120, 300, 1500]) {
        const c = await context({ budget })
        expect(countTokens(c.text)).toBeLessThanOrEqual(budget)
        expect(c.tokens).toBe(countTokens(c.text))
        if (c.included.length < 44) expect(c.omitted).toBe(44 - c.included.length)
      }
      const full = await context({ budget: 1500 })
      expect(full.text.indexOf("Always answer in English")).toBeGreaterThan(0)
      expect(full.text.indexOf("Always answer in English")).toBeLessThan(full.text.indexOf("Note 39"))
      expect(full.text).toContain("Current instructions from the user take precedence")
    })

    it("offers only what answers the query, and nothing for a query nothing answers", async () => {
      const relevant = await context({ query: "when is the staging database reset" })
      expect(relevant.text).toContain("staging database is reset")
      expect(relevant.text).not.toContain("Always answer in English")
      const nothing = await context({ query: "configure kubernetes ingress certificates" })
      expect(nothing).toMatchObject({ text: "", included: [] })
    })
  })

  describe("what recall records", () => {
    it("search appends exactly one MemoriesRecalled with the ids it showed and the project asked from; why appends nothing", async () => {
      const events = () => runAt(T0 + DAY, Effect.flatMap(Queries, (q) => q.log({})))
      const before = (await events()).length
      await runAt(T0 + DAY, Effect.flatMap(Retrieval, (r) => r.why({ query: "staging database", project })))
      expect((await events()).length).toBe(before)
      const found = await runAt(T0 + DAY, Effect.flatMap(Retrieval, (r) => r.search({ query: "staging database", project, task: "T-7" }, actor)))
      const after = await events()
      expect(after.length).toBe(before + 1)
      expect(after.at(-1)!.event).toEqual({
        _tag: "MemoriesRecalled",
        query: "staging database",
        memoryIds: found.results.map((r) => r.memory.id),
        task: "T-7",
        project
      })
    })
  })
})
