/**
 * The `Embedder` service: turns texts into L2-normalised vectors, or says it cannot. One
 * provider per file (none, local, http); `makeEmbedder` picks one from an `EmbedderConfig`
 * (config.ts reads it from the environment). An `EmbedderUnavailable` is never fatal: callers
 * fall back to keyword search and warn once (fallback.ts).
 */
import { Context, Effect, Layer } from "effect"
import { readEmbedderConfig, type EmbedderConfig, type EmbedderProvider } from "./config.js"
import type { EmbedderConfigInvalid, EmbedderUnavailable } from "./errors.js"
import { makeHttpEmbedder } from "./http.js"
import { makeLocalEmbedder } from "./local.js"
import { makeNoneEmbedder } from "./none.js"

export { EmbedderConfigInvalid, EmbedderUnavailable } from "./errors.js"

export interface EmbedderApi {
  readonly provider: EmbedderProvider
  /**
   * The model's identity, `<provider>:<name>`. It names the vector table and keys the
   * embedding cache, so two different models never share either.
   */
  readonly model: string
  /** Length of every vector; 0 until known (the http provider learns it from its first answer). */
  readonly dimensions: number
  /** One unit-length vector per text, in order. */
  readonly embed: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Float32Array>, EmbedderUnavailable>
}

export class Embedder extends Context.Tag("memledger/Embedder")<Embedder, EmbedderApi>() {}

/** Builds the configured provider. Nothing is loaded or contacted until the first `embed`. */
export const makeEmbedder = (config: EmbedderConfig): EmbedderApi => {
  switch (config.provider) {
    case "none":
      return makeNoneEmbedder()
    case "local":
      return makeLocalEmbedder(config.model === undefined ? {} : { modelDir: config.model })
    case "http":
      return makeHttpEmbedder({
        url: config.url ?? "",
        model: config.model ?? "",
        ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
        ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs })
      })
  }
}

export const EmbedderLive = (config: EmbedderConfig): Layer.Layer<Embedder> => Layer.sync(Embedder, () => makeEmbedder(config))

/** The embedder the environment asks for (config.ts); a malformed setting fails the layer. */
export const EmbedderFromEnv = (
  env: Readonly<Record<string, string | undefined>> = process.env
): Layer.Layer<Embedder, EmbedderConfigInvalid> =>
  Layer.effect(
    Embedder,
    Effect.map(
      Effect.suspend(() => readEmbedderConfig(env)),
      makeEmbedder
    )
  )
