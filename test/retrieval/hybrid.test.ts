/**
 * Hybrid search end to end, on every store: the real `http` embedder against a local server
 * that speaks the OpenAI protocol, and the packaged local model. Vectors catch up before a
 * search, search and why agree in hybrid mode, when the server fails search goes on by keyword
 * and says so once, and a memory that shares no word with the query is found by its meaning.
 */
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { Embedder, makeEmbedder, type EmbedderApi } from "../../src/embeddings/embedder.js"
import { AppLayer } from "../../src/services/app.js"
import { Commands } from "../../src/services/commands.js"
import { Retrieval } from "../../src/services/retrieval.js"
import { startFakeServer, type FakeServer } from "../embeddings/fake-embeddings.js"
import { actor, describeEachStore, fixedClock, T0, type ServiceStore } from "../support/services.js"

let server: FakeServer
beforeAll(async () => {
  server = await startFakeServer()
})
afterAll(() => server.close())

const project = "github.com/acme/app"

// One model for the file: it loads once, on its first text.
const localModel = makeEmbedder({ provider: "local" })

/** Adds `contents` to a new store, then searches it for `query` with `embedder`. */
const searchFresh = async (store: ServiceStore, embedder: EmbedderApi, contents: ReadonlyArray<string>, query: string) => {
  const db = await store.fresh()
  const program = Effect.gen(function* () {
    const c = yield* Commands
    for (const content of contents) yield* c.add({ content, category: "gotcha", scope: "project", project }, actor)
    return yield* (yield* Retrieval).search({ query, project }, actor)
  })
  return Effect.runPromise(Effect.scoped(program.pipe(Effect.withClock(fixedClock(T0)), Effect.provide(AppLayer(db, DEFAULT_CONFIG, Layer.succeed(Embedder, embedder))))))
}

describeEachStore((store) => {
  describe("hybrid search over an http embedder", () => {
    it("ranks with vector terms, agrees with why, and falls back to keyword with one notice", async () => {
      const db = await store.fresh()
      // One embedder for the whole program, as one process has.
      const embedder = Layer.succeed(Embedder, makeEmbedder({ provider: "http", url: server.url, model: "bag-of-words", timeoutMs: 2_000 }))
      const program = Effect.gen(function* () {
        const c = yield* Commands
        const r = yield* Retrieval
        yield* c.add({ content: "Run the integration tests with make itest", category: "command", scope: "project", project }, actor)
        yield* c.add({ content: "The staging database resets nightly", category: "gotcha", scope: "project", project }, actor)
        const search = yield* r.search({ query: "integration tests", project }, actor)
        const why = yield* r.why({ query: "integration tests", project })

        server.behaviour = "error-500"
        const first = yield* r.search({ query: "integration tests", project }, actor)
        const second = yield* r.search({ query: "integration tests", project }, actor)
        server.behaviour = "ok"
        return { search, why, first, second }
      })
      const { search, why, first, second } = await Effect.runPromise(
        Effect.scoped(program.pipe(Effect.withClock(fixedClock(T0)), Effect.provide(AppLayer(db, DEFAULT_CONFIG, embedder))))
      )
      expect(search.notice).toBeUndefined()
      expect(search.mode).toBe("hybrid")
      expect(search.results[0]!.memory.content).toMatch(/integration tests/)
      expect(search.results[0]!.terms.relevance.cosine).toBeGreaterThan(0.3)
      expect(why.results.map((r) => [r.memory.id, r.score])).toEqual(search.results.map((r) => [r.memory.id, r.score]))
      expect(server.requests.some((q) => q.input.includes("Run the integration tests with make itest"))).toBe(true)

      expect(first.mode).toBe("keyword")
      expect(first.results[0]!.memory.content).toMatch(/integration tests/)
      expect(first.notice).toMatch(/keyword only/)
      expect(second.mode).toBe("keyword")
      expect(second.notice).toBeUndefined()
    })
  })

  describe("a learned cue's vector", () => {
    it("finds a global memory by the words a conversation asked in a project, and why names the cue and what taught it", async () => {
      const db = await store.fresh()
      const embedder = Layer.succeed(Embedder, makeEmbedder({ provider: "http", url: server.url, model: "bag-of-words", timeoutMs: 2_000 }))
      const teacher = { origin: "claude-code:session/teacher", agent: "claude-code" }
      const asker = { origin: "codex:thread/asker", agent: "codex" }
      const question = "where should request code ask for now"
      const program = Effect.gen(function* () {
        const c = yield* Commands
        const r = yield* Retrieval
        // Global, and taught in a project: the cue applies there only, so it has a vector of its own.
        const clock = yield* c.add({ content: "Handlers read the time from the Clock service", category: "convention", scope: "global", project: null }, actor)
        const missed = yield* r.search({ query: question, project }, teacher)
        yield* r.search({ query: "clock service", project }, teacher)
        yield* c.outcome([clock.id], "worked", {}, teacher)
        const search = yield* r.search({ query: question, project }, asker)
        const why = yield* r.why({ query: question, project })
        return { clock, missed, search, why }
      })
      const { clock, missed, search, why } = await Effect.runPromise(
        Effect.scoped(program.pipe(Effect.withClock(fixedClock(T0)), Effect.provide(AppLayer(db, DEFAULT_CONFIG, embedder))))
      )
      expect(missed.results.map((r) => r.memory.id)).not.toContain(clock.id)
      expect(search.mode).toBe("hybrid")
      expect(search.results.map((r) => r.memory.id)).toEqual([clock.id])
      expect(why.results.map((r) => [r.memory.id, r.score])).toEqual(search.results.map((r) => [r.memory.id, r.score]))
      const relevance = why.results[0]!.terms.relevance
      expect(relevance.viaCue).toMatchObject({ text: question, origin: teacher.origin, cosine: expect.closeTo(1, 5) })
      expect(relevance.cosine).toBeCloseTo(relevance.viaCue!.cosine * relevance.viaCue!.weight, 6)
    })
  })

  describe("hybrid search with the local model", () => {
    it("finds by vector a memory that shares no word with the query, which keyword search alone misses", async () => {
      const query = "preprod data wiped daily"
      const staging = "The staging database resets nightly"
      const search = (embedder: EmbedderApi) => searchFresh(store, embedder, [staging, "Run the integration tests with make itest"], query)

      const keyword = await search(makeEmbedder({ provider: "none" }))
      expect(keyword.mode).toBe("keyword")
      expect(keyword.results).toEqual([])

      const hybrid = await search(localModel)
      expect(hybrid.mode).toBe("hybrid")
      expect(hybrid.results.map((r) => r.memory.content)).toEqual([staging])
      expect(hybrid.results[0]!.terms.relevance.bm25).toBe(0)
      expect(hybrid.results[0]!.terms.relevance.cosine).toBeGreaterThanOrEqual(DEFAULT_CONFIG.coverageCosine)
    })
  })
})

