/**
 * An Embedder that passes every call through to a real one and records what each call cost
 * (wall and this process's CPU), so a bench can report a search's query embedding apart from
 * the rest of the search while the search still runs through the real services.
 */
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import type { EmbedderApi } from "../../src/embeddings/embedder.js"

export interface EmbedCall {
  readonly texts: number
  readonly wallMs: number
  /** User + system CPU of this process during the call (a server's own CPU is not in it). */
  readonly cpuMs: number
  readonly vectors: ReadonlyArray<Float32Array>
}

export interface TimedEmbedder {
  readonly embedder: EmbedderApi
  /** The calls since the last `take`, oldest first; `take` forgets them. */
  readonly take: () => EmbedCall[]
}

export const timedEmbedder = (inner: EmbedderApi): TimedEmbedder => {
  let calls: EmbedCall[] = []
  const embedder: EmbedderApi = {
    provider: inner.provider,
    model: inner.model,
    get dimensions() {
      return inner.dimensions
    },
    embed: (texts) =>
      Effect.suspend(() => {
        const c0 = process.cpuUsage()
        const t0 = performance.now()
        return Effect.tap(inner.embed(texts), (vectors) =>
          Effect.sync(() => {
            const wallMs = performance.now() - t0
            const c = process.cpuUsage(c0)
            calls.push({ texts: texts.length, wallMs, cpuMs: (c.user + c.system) / 1000, vectors })
          })
        )
      })
  }
  return {
    embedder,
    take: () => {
      const taken = calls
      calls = []
      return taken
    }
  }
}
