/**
 * The local provider loads lazily and never crashes: a missing package or a model folder
 * without its files is an EmbedderUnavailable, remembered for later calls. When the model's
 * packages are installed (see docs/embeddings.md), it also checks that the model ranks a
 * paraphrase above unrelated sentences. MEMLEDGER_TEST_LOCAL_FROM may name another folder
 * whose node_modules holds them (an evaluation install outside the repo).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Either } from "effect"
import { afterAll, expect, test } from "vitest"
import { makeEmbedder } from "../../src/embeddings/embedder.js"
import type { EmbedderUnavailable } from "../../src/embeddings/errors.js"
import { LOCAL_DIMENSIONS, LOCAL_MODEL, LOCAL_PACKAGES, makeLocalEmbedder } from "../../src/embeddings/local.js"
import { cosine } from "../../src/embeddings/normalize.js"

const resolveFrom = process.env.MEMLEDGER_TEST_LOCAL_FROM ?? join(import.meta.dirname, "..", "..")
const installed = Object.values(LOCAL_PACKAGES).every((name) => {
  try {
    createRequire(join(resolveFrom, "noop.js")).resolve(name)
    return true
  } catch {
    return false
  }
})
if (!installed) console.warn(`[test/embeddings] skipping the local model quality test: ${Object.values(LOCAL_PACKAGES).join(", ")} are not installed`)

const empty = mkdtempSync(join(tmpdir(), "memledger-local-"))
afterAll(() => rmSync(empty, { recursive: true, force: true }))

const failure = async (effect: Effect.Effect<unknown, EmbedderUnavailable>): Promise<EmbedderUnavailable> => {
  const result = await Effect.runPromise(Effect.either(effect))
  if (Either.isRight(result)) throw new Error("expected the local embedder to be unavailable")
  return result.left
}

test("creating the local embedder loads nothing; it names its model and dimensions up front", () => {
  const embedder = makeEmbedder({ provider: "local" })
  expect(embedder.provider).toBe("local")
  expect(embedder.model).toBe(LOCAL_MODEL)
  expect(embedder.dimensions).toBe(LOCAL_DIMENSIONS)
})

test("packages that cannot be found make EmbedderUnavailable saying what to install", async () => {
  const error = await failure(makeLocalEmbedder({ resolveFrom: empty }).embed(["hello"]))
  expect(error).toMatchObject({ _tag: "EmbedderUnavailable", provider: "local" })
  expect(error.reason).toContain("is not installed")
  expect(error.reason).toContain(LOCAL_PACKAGES.weights)
})

test("a model folder without a usable model makes EmbedderUnavailable", async () => {
  const folder = join(empty, "bad-model")
  mkdirSync(folder)
  writeFileSync(join(folder, "model.json"), "{ not json")
  const embedder = makeLocalEmbedder({ resolveFrom, modelDir: folder })
  expect(embedder.model).toBe(`${LOCAL_MODEL}@${folder}`)
  const error = await failure(embedder.embed(["hello"]))
  expect(error.provider).toBe("local")
  expect(error.reason).toMatch(installed ? /did not load/ : /is not installed/)
})

/** Stand-ins for the three packages, with the same entry points, so the wiring is tested without the model. */
const installStubs = (root: string): void => {
  const pkg = (name: string, main: string, files: Record<string, string> = {}) => {
    const dir = join(root, "node_modules", name)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name, version: "0.0.0", main: "index.js" }))
    writeFileSync(join(dir, "index.js"), main)
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  }
  pkg(LOCAL_PACKAGES.runtime, "exports.loadGraphModel = async (url) => ({ url })")
  pkg(
    LOCAL_PACKAGES.embeddings,
    `exports.initModel = async (source) => {
       const { model, vocabulary } = await source()
       if (!model.url.endsWith("/model.json") || vocabulary.length !== 1) throw new Error("bad source")
       return { embed: async (texts) => texts.map((t) => Array.from({ length: ${LOCAL_DIMENSIONS} }, (_, i) => (i === t.length ? 3 : 0))) }
     }`
  )
  pkg(LOCAL_PACKAGES.weights, "exports.modelSource = null", { "model.json": "{}", "vocab.json": '[["x", 0]]' })
}

test("a failed load is remembered: the packages appearing later do not make that embedder load again", async () => {
  const root = join(empty, "late")
  mkdirSync(root)
  const embedder = makeLocalEmbedder({ resolveFrom: root })
  const first = await failure(embedder.embed(["hello"]))
  installStubs(root)
  expect(await failure(embedder.embed(["hello"]))).toEqual(first)
  // A new embedder does load them, resolving the runtime and the weights beside the embeddings package.
  const vectors = Either.getOrThrow(await Effect.runPromise(Effect.either(makeLocalEmbedder({ resolveFrom: root }).embed(["ab", "abcd"]))))
  expect(vectors.map((v) => [v.length, v.indexOf(1)])).toEqual([
    [LOCAL_DIMENSIONS, 2],
    [LOCAL_DIMENSIONS, 4]
  ])
})

test.skipIf(!installed)("the packaged model embeds a paraphrase closer than unrelated sentences (skipped when not installed)", async () => {
  const embedder = makeLocalEmbedder({ resolveFrom })
  const [query, paraphrase, ...unrelated] = Either.getOrThrow(
    await Effect.runPromise(
      Effect.either(
        embedder.embed([
          "how do I run the tests",
          "command to execute the test suite",
          "the CSS grid uses twelve columns",
          "logs are rotated daily by logrotate",
          "dark mode colors are defined in theme.ts"
        ])
      )
    )
  )
  expect(query!.length).toBe(LOCAL_DIMENSIONS)
  expect(Math.hypot(...query!)).toBeCloseTo(1, 4)
  const close = cosine(query!, paraphrase!)
  for (const other of unrelated) expect(close).toBeGreaterThan(cosine(query!, other))
})
