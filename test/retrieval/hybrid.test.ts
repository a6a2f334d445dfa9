/**
 * Hybrid search end to end: the real `http` embedder against a local server that speaks the
 * OpenAI protocol. Vectors catch up before a search, search and why agree in hybrid mode, and
 * when the server fails, search goes on by keyword and says so once.
 */
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { Embedder, makeEmbedder } from "../../src/embeddings/embedder.js"
import { AppLayer } from "../../src/services/app.js"
import { Commands } from "../../src/services/commands.js"
import { Retrieval } from "../../src/services/retrieval.js"
import { startFakeServer, type FakeServer } from "../embeddings/fake-embeddings.js"
import { actor, fixedClock, freshDb, T0 } from "../support/services.js"

let server: FakeServer
beforeAll(async () => {
  server = await startFakeServer()
})
afterAll(() => server.close())

const project = "github.com/acme/app"

describe("hybrid search over an http embedder", () => {
  it("ranks with vector terms, agrees with why, and falls back to keyword with one notice", async () => {
    const db = freshDb()
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
