/**
 * Whether a model's vectors caught up with the text they embed: the content-change counter
 * (bumped by every write that changes indexed text) against the count the model last synced to.
 * A sync runs only when they differ: one row read when no text changed since the last time.
 */
import { Effect } from "effect"
import type { EmbedderApi } from "../../embeddings/embedder.js"
import type { EmbedderUnavailable } from "../../embeddings/errors.js"
import type { Progress } from "../store-maintenance.js"
import type { LedgerStore } from "./ledger-store.js"
import { contentChanges, markSynced, syncedChanges } from "./projections/content-changes.js"
import { syncVectors } from "./projections/vector-sync.js"

/** The name under which a model's vectors record the text changes they caught up with. */
const vectorSyncName = (model: string): string => `vectors:${model}`

export const vectorsCurrent = (store: LedgerStore, model: string): boolean =>
  store.read((db) => syncedChanges(db, vectorSyncName(model)) === contentChanges(db))

/** Brings the embedder's vectors up to date unless no indexed text changed since the last time. */
export const ensureVectors = (store: LedgerStore, embedder: EmbedderApi, onProgress?: Progress): Effect.Effect<void, EmbedderUnavailable> =>
  Effect.suspend((): Effect.Effect<void, EmbedderUnavailable> => {
    const name = vectorSyncName(embedder.model)
    const changes = contentChanges(store.db)
    if (syncedChanges(store.db, name) === changes) return Effect.void
    return syncVectors(store.db, embedder, onProgress).pipe(Effect.flatMap(() => Effect.sync(() => store.writeOrThrow(() => markSynced(store.db, name, changes)))))
  })
