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

export interface QueryVectorResult {
  readonly vector?: QueryVector
  /** Said once per process when the embedder fails and search falls back to keyword. */
  readonly notice?: string
}

export const makeQueryVectors = (
  syncVectors: (embedder: EmbedderApi) => Effect.Effect<boolean, EmbedderUnavailable>,
  embedder: EmbedderApi,
  notice: (e: EmbedderUnavailable) => string | undefined
) =>
  (query: string): Effect.Effect<QueryVectorResult> => {
    if (embedder.provider === "none") return Effect.succeed({})
    return syncVectors(embedder).pipe(
      // A store that keeps no vectors has nothing to compare a query's vector with: no embedding call.
      Effect.flatMap((kept) => (kept ? embedder.embed([query]) : Effect.succeed([]))),
      Effect.map(([vector]): QueryVectorResult => (vector ? { vector: { model: embedder.model, vector } } : {})),
      Effect.catchTag("EmbedderUnavailable", (e) => {
        const text = notice(e)
        return Effect.succeed(text === undefined ? {} : { notice: text })
      })
    )
  }
