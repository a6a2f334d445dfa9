/**
 * The near-duplicate check on write, pinned from both sides. A text that nearly repeats a live
 * memory is held back until the caller says how they relate; a related but different one is
 * stored as new. Two measures decide: the share of content words (Dice, at 0.6) and, with an
 * embedder, the cosine of the texts' vectors (at 0.9), here with the packaged local model.
 * Recall too keeps a related but different memory beside the one it resembles. On every store.
 */
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { Embedder, makeEmbedder, type EmbedderApi } from "../../src/embeddings/embedder.js"
import { Operations, type Caller } from "../../src/api/operations.js"
import { LocalOperationsLayer } from "../../src/services/app.js"
import { contentWords, dice } from "../../src/retrieval/similar.js"
import { describeEachStore, fixedClock, T0, type ServiceStore } from "../support/services.js"

const caller: Caller = { origin: "mcp:test/session-1", agent: "test-client", project: "github.com/acme/shop" }
const keywordOnly = makeEmbedder({ provider: "none" })
// One model for the file: it loads once, on its first text.
const localModel = makeEmbedder({ provider: "local" })

type Ops = Effect.Effect.Success<typeof Operations>

/** Runs `program` on a fresh store, with `embedder`. */
const inFreshStore = async <A, E>(store: ServiceStore, embedder: EmbedderApi, program: (o: Ops) => Effect.Effect<A, E>) => {
  const location = await store.fresh()
  return Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(Operations, program).pipe(
        Effect.withClock(fixedClock(T0)),
        Effect.provide(LocalOperationsLayer(location, DEFAULT_CONFIG, Layer.succeed(Embedder, embedder)))
      )
    )
  )
}

/** Remembers `first`, then `second`: the answer to the second. */
const rememberBoth = (store: ServiceStore, embedder: EmbedderApi, first: string, second: string) =>
  inFreshStore(store, embedder, (o) =>
    Effect.gen(function* () {
      expect(yield* o.remember({ content: first }, caller)).toMatchObject({ stored: true })
      return yield* o.remember({ content: second }, caller)
    })
  )

/** Each shares between a third and a half of its content words with the other, and says something else. */
const related: ReadonlyArray<readonly [string, string]> = [
  ["Format Python code with black", "Lint Python code with ruff"],
  ["Never deploy without running the tests first", "Never deploy without telling the on-call engineer"],
  ["Use tabs for indentation in Go files", "Use four spaces for indentation in Python files"],
  ["Format Python code with black", "Format TypeScript code with prettier"]
]

describeEachStore((store) => {
  const embedders: ReadonlyArray<readonly [string, EmbedderApi]> = [
    ["by words alone", keywordOnly],
    ["by words and the local model's vectors", localModel]
  ]
  describe.each(embedders)("remember, %s", (_, embedder) => {
    it.each(related)("stores a related but different text as new: %s / %s", async (first, second) => {
      expect(dice(contentWords(first), contentWords(second))).toBeGreaterThan(0.3)
      expect(await rememberBoth(store, embedder, first, second)).toMatchObject({ stored: true })
    })

    it("holds back a text sharing two thirds of its words", async () => {
      const answer = await rememberBoth(store, embedder, "Deploy with make deploy", "To deploy, run make deploy")
      expect(answer).toMatchObject({ stored: false, reason: "similar memories exist", similar: [{ similarity: expect.closeTo(2 / 3, 5) }] })
    })
  })

  describe("remember, with the local model's vectors", () => {
    it("holds back a rewording that shares few words but means the same (cosine at or above 0.9)", async () => {
      const [first, second] = ["Never deploy without running the tests first", "Always run the tests before deploying"]
      expect(dice(contentWords(first), contentWords(second))).toBeLessThan(0.6)
      expect(await rememberBoth(store, keywordOnly, first, second)).toMatchObject({ stored: true })
      const answer = await rememberBoth(store, localModel, first, second)
      expect(answer).toMatchObject({ stored: false, reason: "similar memories exist" })
      if (!("similar" in answer)) throw new Error("expected similar memories")
      expect(answer.similar[0]!.similarity).toBeGreaterThanOrEqual(0.9)
    })
  })

  describe("recall, with the local model's vectors", () => {
    it("returns a related but different memory beside the one it resembles (cosine below 0.95)", async () => {
      const [first, second] = ["Use tabs for indentation in Go files", "Use four spaces for indentation in Python files"]
      const recalled = await inFreshStore(store, localModel, (o) =>
        Effect.gen(function* () {
          for (const content of [first, second]) expect(yield* o.remember({ content }, caller)).toMatchObject({ stored: true })
          return yield* o.recall({ query: "indentation" }, caller)
        })
      )
      expect(recalled.mode).toBe("hybrid")
      expect(recalled.results.map((r) => r.content).sort()).toEqual([first, second].sort())
    })
  })
})
