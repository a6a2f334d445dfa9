/**
 * The query's vector for hybrid search: first the store brings its vectors up to date (cheap
 * when no text changed since the last sync), then the query is embedded; where the store keeps
 * no vectors, there is no query vector and the search is a keyword one. If the embedder fails,
 * search goes on by keyword and the caller gets a one-time notice.
 */
import { Effect } from "effect"
import type { EmbedderApi } from "../embeddings/embedder.js"
import type { EmbedderUnavailable } from "../embeddings/errors.js"
import type { QueryVector } from "./candidate.js"

/** Whether searches are keyword ones: no embedder, or a store that keeps no vectors to compare with. */
export const searchesByKeyword = (embedder: EmbedderApi, store: { readonly keepsVectors: boolean }): boolean =>
  embedder.provider === "none" || !store.keepsVectors

export interface QueryVectorResult {
  readonly vector?: QueryVector
  /** Said once per process when the embedder fails and search falls back to keyword. */
  readonly notice?: string
}

export const makeQueryVectors = (
  store: { readonly keepsVectors: boolean; readonly syncVectors: (embedder: EmbedderApi) => Effect.Effect<void, EmbedderUnavailable> },
  embedder: EmbedderApi,
  notice: (e: EmbedderUnavailable) => string | undefined
) =>
  (query: string): Effect.Effect<QueryVectorResult> => {
    if (searchesByKeyword(embedder, store)) return Effect.succeed({})
    return store.syncVectors(embedder).pipe(
      Effect.zipRight(embedder.embed([query])),
      Effect.map(([vector]): QueryVectorResult => (vector ? { vector: { model: embedder.model, vector } } : {})),
      Effect.catchTag("EmbedderUnavailable", (e) => {
        const text = notice(e)
        return Effect.succeed(text === undefined ? {} : { notice: text })
      })
    )
  }
