/**
 * Whether a model's vectors caught up with the text they embed, and bringing them up to date:
 * the sync every store shares (store/vector-sync.ts) over this file's tables. A sync runs only
 * when the content-change counter moved since the model last caught up.
 */
import type { Effect } from "effect"
import type { EmbedderApi } from "../../embeddings/embedder.js"
import type { EmbedderUnavailable } from "../../embeddings/errors.js"
import type { Progress } from "../store-maintenance.js"
import * as shared from "../vector-sync.js"
import type { LedgerStore } from "./ledger-store.js"
import { sqliteVectorStore } from "./projections/vector-sync.js"

export const vectorsCurrent = (store: LedgerStore, model: string): boolean => store.read((db) => shared.vectorsCurrent(sqliteVectorStore(db), model))

/** Brings the embedder's vectors up to date unless no indexed text changed since the last time. */
export const ensureVectors = (store: LedgerStore, embedder: EmbedderApi, onProgress?: Progress): Effect.Effect<void, EmbedderUnavailable> =>
  shared.ensureVectors(sqliteVectorStore(store.db), embedder, onProgress)
