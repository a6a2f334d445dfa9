/**
 * The http provider against a real OpenAI-compatible server on 127.0.0.1: request shape,
 * batching, unit-length vectors in input order, the dimension learned from the first answer,
 * and every failure (error status, no answer, a malformed answer, nothing listening) as
 * EmbedderUnavailable rather than an exception.
 */
import { Effect, Either } from "effect"
import { afterEach, beforeEach, expect, test } from "vitest"
import { makeEmbedder } from "../../src/embeddings/embedder.js"
import type { EmbedderUnavailable } from "../../src/embeddings/errors.js"
import { embeddingsEndpoint, makeHttpEmbedder } from "../../src/embeddings/http.js"
import { cosine, l2Normalize } from "../../src/embeddings/normalize.js"
import { bagOfWords, startFakeServer, type FakeServer } from "./fake-embeddings.js"

let server: FakeServer
beforeEach(async () => {
  server = await startFakeServer()
})
afterEach(() => server.close())

const run = <A>(effect: Effect.Effect<A, EmbedderUnavailable>) => Effect.runPromise(Effect.either(effect))

const failure = async (effect: Effect.Effect<unknown, EmbedderUnavailable>): Promise<EmbedderUnavailable> => {
  const result = await run(effect)
  if (Either.isRight(result)) throw new Error("expected the embedder to be unavailable")
  return result.left
}

test("posts {model, input} with the bearer key and returns unit vectors in input order, learning the dimension", async () => {
  const embedder = makeEmbedder({ provider: "http", url: server.url, model: "nomic-embed-text", apiKey: "sk-test" })
  expect(embedder.model).toBe("http:nomic-embed-text")
  expect(embedder.dimensions).toBe(0)
  server.behaviour = "shuffled"

  const vectors = Either.getOrThrow(await run(embedder.embed(["run the tests", "deploy on friday"])))

  expect(server.requests).toEqual([{ model: "nomic-embed-text", input: ["run the tests", "deploy on friday"], authorization: "Bearer sk-test" }])
  expect(embedder.dimensions).toBe(32)
  expect(vectors.map((v) => [...v])).toEqual(["run the tests", "deploy on friday"].map((t) => [...l2Normalize(bagOfWords(t, 32))]))
  for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 5)
})

test("sends at most 64 texts per request and keeps the order across batches", async () => {
  const embedder = makeHttpEmbedder({ url: `${server.url}/v1`, model: "m" })
  const texts = Array.from({ length: 150 }, (_, i) => `memory number ${i}`)
  const vectors = Either.getOrThrow(await run(embedder.embed(texts)))
  expect(server.requests.map((r) => r.input.length)).toEqual([64, 64, 22])
  expect(server.requests[0]!.authorization).toBeUndefined()
  expect(cosine(vectors[149]!, l2Normalize(bagOfWords("memory number 149", 32)))).toBeCloseTo(1, 5)
})

test("no texts, no request", async () => {
  const embedder = makeHttpEmbedder({ url: server.url, model: "m" })
  expect(Either.getOrThrow(await run(embedder.embed([])))).toEqual([])
  expect(server.requests).toEqual([])
})

test("an error status is EmbedderUnavailable with the status and the server's words", async () => {
  server.behaviour = "error-500"
  const error = await failure(makeHttpEmbedder({ url: server.url, model: "m" }).embed(["x"]))
  expect(error._tag).toBe("EmbedderUnavailable")
  expect(error.provider).toBe("http")
  expect(error.reason).toContain("500")
  expect(error.reason).toContain("model failed to load")
})

test("a server that never answers is EmbedderUnavailable after the timeout", async () => {
  server.behaviour = "hang"
  const started = Date.now()
  const error = await failure(makeHttpEmbedder({ url: server.url, model: "m", timeoutMs: 300 }).embed(["x"]))
  expect(error.reason).toContain("did not answer within 300 ms")
  expect(Date.now() - started).toBeLessThan(5_000)
})

test("nothing listening is EmbedderUnavailable, not an exception", async () => {
  const url = server.url
  await server.close()
  const error = await failure(makeHttpEmbedder({ url, model: "m", timeoutMs: 2_000 }).embed(["x"]))
  expect(error.reason).toContain("cannot reach")
})

test("an answer that is not JSON, or has the wrong number of vectors, is refused", async () => {
  const embedder = makeHttpEmbedder({ url: server.url, model: "m" })
  server.behaviour = "not-json"
  expect((await failure(embedder.embed(["x"]))).reason).toContain("not JSON")
  server.behaviour = "wrong-count"
  expect((await failure(embedder.embed(["x"]))).reason).toContain("asked m for 1 embeddings and got 0")
})

test("a later answer of another length is refused: vectors of two lengths cannot share an index", async () => {
  const embedder = makeHttpEmbedder({ url: server.url, model: "m" })
  Either.getOrThrow(await run(embedder.embed(["x"])))
  server.dimensions = 16
  expect((await failure(embedder.embed(["y"]))).reason).toContain("16-dimensional vectors after 32-dimensional ones")
  expect(embedder.dimensions).toBe(32)
})

test("the endpoint is {url}/v1/embeddings whether or not the URL already says /v1 or /embeddings", () => {
  expect(embeddingsEndpoint("http://127.0.0.1:11434")).toBe("http://127.0.0.1:11434/v1/embeddings")
  expect(embeddingsEndpoint("http://127.0.0.1:11434/")).toBe("http://127.0.0.1:11434/v1/embeddings")
  expect(embeddingsEndpoint("http://127.0.0.1:1234/v1")).toBe("http://127.0.0.1:1234/v1/embeddings")
  expect(embeddingsEndpoint("https://api.example.com/v1/embeddings")).toBe("https://api.example.com/v1/embeddings")
})

test("a connection the server closes without answering is tried once more, on a new one", async () => {
  const embedder = makeHttpEmbedder({ url: server.url, model: "m" })
  server.behaviour = "drop-once"
  const vectors = Either.getOrThrow(await run(embedder.embed(["run the tests"])))
  expect(vectors).toHaveLength(1)
  expect(server.requests).toHaveLength(2)
})
