/**
 * The query's vector for hybrid search: first the vectors projection is brought up to date
 * (one row read when no text changed since the last sync), then the query is embedded. If the
 * embedder fails, search goes on by keyword and the caller gets a one-time notice.
 */
import { Effect } from "effect"
import type { EmbedderApi } from "../embeddings/embedder.js"
import type { EmbedderUnavailable } from "../embeddings/errors.js"
import { contentChanges, markSynced, syncedChanges } from "../store/sqlite/projections/content-changes.js"
import { syncVectors, type VectorProgress } from "../store/sqlite/projections/vector-sync.js"
import type { LedgerStore } from "../store/sqlite/ledger-store.js"
import { type QueryVector } from "./candidate.js"

export interface QueryVectorResult {
  readonly vector?: QueryVector
  /** Said once per process when the embedder fails and search falls back to keyword. */
  readonly notice?: string
}

/** The name under which a model's vectors record the text changes they caught up with. */
export const vectorSyncName = (model: string): string => `vectors:${model}`

/** Brings the embedder's vectors up to date unless no indexed text changed since the last time. */
export const ensureVectors = (store: LedgerStore, embedder: EmbedderApi, onProgress?: VectorProgress): Effect.Effect<void, EmbedderUnavailable> =>
  Effect.suspend((): Effect.Effect<void, EmbedderUnavailable> => {
    const name = vectorSyncName(embedder.model)
    const changes = contentChanges(store.db)
    if (syncedChanges(store.db, name) === changes) return Effect.void
    return syncVectors(store.db, embedder, onProgress).pipe(Effect.flatMap(() => Effect.sync(() => store.writeOrThrow(() => markSynced(store.db, name, changes)))))
  })

export const makeQueryVectors = (store: LedgerStore, embedder: EmbedderApi, notice: (e: EmbedderUnavailable) => string | undefined) =>
  (query: string): Effect.Effect<QueryVectorResult> => {
    if (embedder.provider === "none") return Effect.succeed({})
    return ensureVectors(store, embedder).pipe(
      Effect.zipRight(embedder.embed([query])),
      Effect.map(([vector]): QueryVectorResult => (vector ? { vector: { model: embedder.model, vector } } : {})),
      Effect.catchTag("EmbedderUnavailable", (e) => {
        const text = notice(e)
        return Effect.succeed(text === undefined ? {} : { notice: text })
      })
    )
  }
