/**
 * Reading the embedder from the environment, picking the provider, and the one-time warning
 * when a configured embedder fails and search falls back to keywords.
 */
import { Effect, Either, Layer } from "effect"
import { expect, test } from "vitest"
import { readEmbedderConfig } from "../../src/embeddings/config.js"
import { Embedder, EmbedderFromEnv, makeEmbedder } from "../../src/embeddings/embedder.js"
import { EmbedderUnavailable } from "../../src/embeddings/errors.js"
import { fallbackWarning, makeFallbackNotice } from "../../src/embeddings/fallback.js"

const read = (env: Record<string, string>) => readEmbedderConfig(env)

test("nothing set means keyword search only", () => {
  expect(read({})).toEqual(Either.right({ provider: "none" }))
  expect(read({ MEMLEDGER_EMBEDDER: " " })).toEqual(Either.right({ provider: "none" }))
})

test("local takes an optional model folder; http needs a URL and a model, and takes a key and a timeout", () => {
  expect(read({ MEMLEDGER_EMBEDDER: "LOCAL" })).toEqual(Either.right({ provider: "local" }))
  expect(read({ MEMLEDGER_EMBEDDER: "local", MEMLEDGER_EMBEDDER_MODEL: "/models/use" })).toEqual(Either.right({ provider: "local", model: "/models/use" }))
  expect(
    read({
      MEMLEDGER_EMBEDDER: "http",
      MEMLEDGER_EMBEDDER_URL: "http://127.0.0.1:11434",
      MEMLEDGER_EMBEDDER_MODEL: "nomic-embed-text",
      MEMLEDGER_EMBEDDER_KEY: "sk-1",
      MEMLEDGER_EMBEDDER_TIMEOUT_MS: "5000"
    })
  ).toEqual(Either.right({ provider: "http", url: "http://127.0.0.1:11434", model: "nomic-embed-text", apiKey: "sk-1", timeoutMs: 5000 }))
})

test("a bad setting names the variable and what to do", () => {
  const reason = (env: Record<string, string>) => {
    const result = read(env)
    return Either.isLeft(result) ? [result.left.variable, result.left.reason] : undefined
  }
  expect(reason({ MEMLEDGER_EMBEDDER: "openai" })).toEqual(["MEMLEDGER_EMBEDDER", "use one of: none, local, http"])
  expect(reason({ MEMLEDGER_EMBEDDER: "http", MEMLEDGER_EMBEDDER_MODEL: "m" })?.[0]).toBe("MEMLEDGER_EMBEDDER_URL")
  expect(reason({ MEMLEDGER_EMBEDDER: "http", MEMLEDGER_EMBEDDER_URL: "ftp://x", MEMLEDGER_EMBEDDER_MODEL: "m" })).toEqual([
    "MEMLEDGER_EMBEDDER_URL",
    "not an http:// or https:// URL"
  ])
  expect(reason({ MEMLEDGER_EMBEDDER: "http", MEMLEDGER_EMBEDDER_URL: "http://x" })?.[0]).toBe("MEMLEDGER_EMBEDDER_MODEL")
  expect(reason({ MEMLEDGER_EMBEDDER: "http", MEMLEDGER_EMBEDDER_URL: "http://x", MEMLEDGER_EMBEDDER_MODEL: "m", MEMLEDGER_EMBEDDER_TIMEOUT_MS: "soon" })?.[0]).toBe(
    "MEMLEDGER_EMBEDDER_TIMEOUT_MS"
  )
})

test("the none provider is keyword-only: every embed is EmbedderUnavailable, and that is no cause for a warning", async () => {
  const none = makeEmbedder({ provider: "none" })
  expect([none.provider, none.model, none.dimensions]).toEqual(["none", "none", 0])
  const result = await Effect.runPromise(Effect.either(none.embed(["x"])))
  expect(Either.isLeft(result) && result.left.provider).toBe("none")
  expect(Either.isLeft(result) && fallbackWarning(result.left)).toBeUndefined()
})

test("the layer reads the environment, and fails on a bad setting instead of guessing", async () => {
  const provider = (env: Record<string, string>) =>
    Effect.runPromise(Effect.either(Effect.map(Embedder, (e) => e.provider).pipe(Effect.provide(EmbedderFromEnv(env)))))
  expect(await provider({ MEMLEDGER_EMBEDDER: "local" })).toEqual(Either.right("local"))
  const bad = await provider({ MEMLEDGER_EMBEDDER: "gpu" })
  expect(Either.isLeft(bad) && bad.left._tag).toBe("EmbedderConfigInvalid")
  expect(Layer.isLayer(EmbedderFromEnv({}))).toBe(true)
})

test("a failing provider is warned about once, with the reason and how to silence it", () => {
  const notice = makeFallbackNotice()
  const down = new EmbedderUnavailable({ provider: "http", reason: "http://127.0.0.1:11434/v1/embeddings answered 500" })
  const text = notice(down)
  expect(text).toContain("the http embedder is unavailable: http://127.0.0.1:11434/v1/embeddings answered 500")
  expect(text).toContain("keyword only")
  expect(text).toContain("MEMLEDGER_EMBEDDER=none")
  expect(notice(down)).toBeUndefined()
  expect(notice(new EmbedderUnavailable({ provider: "local", reason: "not installed" }))).toContain("the local embedder is unavailable")
})
