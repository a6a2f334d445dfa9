/**
 * Keeping the vectors projection in step with `memories` (see vectors.ts for its tables): plan
 * what changed, embed through the cache outside any transaction, and write each batch in a
 * short transaction of its own, so a sync never holds the write lock while the embedder works.
 */
import { Effect } from "effect"
import type { EmbedderApi } from "../../../embeddings/embedder.js"
import { EmbedderUnavailable } from "../../../embeddings/errors.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import {
  contentHash,
  createModelTable,
  createVectorSchema,
  deleteVector,
  forgetModel,
  modelInfo,
  placeOf,
  tableExists,
  toBlob,
  toFloat32,
  type ModelRow
} from "./vectors.js"

export interface SyncCounts {
  readonly model: string
  /** Memories in the `memories` projection. */
  readonly memories: number
  /** Vectors already current: nothing done. */
  readonly unchanged: number
  /** Vectors computed by the embedder in this sync. */
  readonly embedded: number
  /** Vectors taken from the embedding cache (no embedder call). */
  readonly cached: number
  /** Vectors deleted because their memory is gone. */
  readonly removed: number
  /** Memories whose text changed while they were being embedded: left for the next sync. */
  readonly skipped: number
}

export type VectorProgress = (done: number, total: number) => void

/** Texts handed to the embedder per call, and vectors written per transaction. */
const SYNC_BATCH = 64

/**
 * Brings `model`'s vectors in step with `memories`: embeds (through the cache) each memory whose
 * vector is missing or was made from other text, and deletes vectors of memories that are gone.
 * Progress counts the vectors to write. Safe to run while other processes append: each batch
 * re-checks the text it embedded before writing, and anything missed is picked up next time.
 * Call it outside any transaction: it opens its own short ones around each batch.
 */
export const syncVectors = (
  db: Db,
  embedder: EmbedderApi,
  onProgress?: VectorProgress
): Effect.Effect<SyncCounts, EmbedderUnavailable> =>
  Effect.gen(function* () {
    const first = yield* syncPass(db, embedder, onProgress)
    if (!first.reset) return first.counts
    // The model changed its vector length mid-way: the table was rebuilt, so index the rest now.
    const second = (yield* syncPass(db, embedder, onProgress)).counts
    return {
      ...second,
      embedded: first.counts.embedded + second.embedded,
      cached: first.counts.cached + second.cached,
      removed: first.counts.removed + second.removed
    }
  })

const syncPass = (db: Db, embedder: EmbedderApi, onProgress?: VectorProgress) =>
  Effect.gen(function* () {
    const model = embedder.model
    const plan = planSync(db, model, embedder.dimensions)
    const total = plan.work.length
    let done = 0
    let embedded = 0
    let cached = 0
    let skipped = 0
    let reset = false
    onProgress?.(0, total)
    for (let i = 0; i < plan.work.length; i += SYNC_BATCH) {
      const batch = plan.work.slice(i, i + SYNC_BATCH)
      const hits = readCache(db, model, batch.map((w) => w.hash), embedder.dimensions || modelInfo(db, model)?.dimensions)
      const misses = uniqueByHash(batch.filter((w) => !hits.has(w.hash)))
      if (misses.length > 0) {
        const vectors = yield* embedder.embed(misses.map((w) => w.content))
        if (vectors.length !== misses.length) {
          return yield* Effect.fail(
            new EmbedderUnavailable({ provider: embedder.provider, reason: `asked for ${misses.length} vectors and got ${vectors.length}` })
          )
        }
        misses.forEach((w, j) => hits.set(w.hash, vectors[j]!))
        embedded += misses.length
      }
      const written = writeVectors(
        db,
        model,
        batch.map((w) => ({ key: w.key, hash: w.hash, place: w.place, vector: hits.get(w.hash)! })),
        new Set(misses.map((w) => w.hash))
      )
      cached += written.fromCache
      skipped += written.skipped
      reset ||= written.reset
      done += batch.length
      onProgress?.(done, total)
    }
    const counts: SyncCounts = { model, memories: plan.memories, unchanged: plan.unchanged, embedded, cached, removed: plan.gone.length, skipped }
    return { counts, reset }
  })

/** How many memories still need a vector for `model` (0 when the projection is current). */
export const pendingVectors = (db: Db, model: string): number => {
  if (!tableExists(db, "memories")) return 0
  const plan = readPlan(db, model)
  return plan.work.length + plan.gone.length
}

interface Work {
  readonly key: number
  readonly hash: string
  readonly place: string
  readonly content: string
}

interface Plan {
  readonly memories: number
  readonly unchanged: number
  readonly gone: ReadonlyArray<number>
  readonly work: ReadonlyArray<Work>
}

/** Compares `memories` with `vector_state` for `model`: what is current, what to embed, what is gone. Reads only. */
const readPlan = (db: Db, model: string): Plan => {
  const state = new Map<number, { hash: string; place: string }>()
  if (modelInfo(db, model) !== undefined) {
    const rows = statement(db, "SELECT key, content_hash, place FROM vector_state WHERE model = ?").all(model) as { key: number; content_hash: string; place: string }[]
    for (const r of rows) state.set(r.key, { hash: r.content_hash, place: r.place })
  }
  const memories = statement(db, "SELECT key, content, project FROM memories ORDER BY key").all() as { key: number; content: string; project: string | null }[]
  const present = new Set<number>()
  const work: Work[] = []
  let unchanged = 0
  for (const m of memories) {
    present.add(m.key)
    const hash = contentHash(m.content)
    const place = placeOf(m.project)
    const stored = state.get(m.key)
    // A memory that moved to another project is filed again (from the cache: same text).
    if (stored?.hash === hash && stored.place === place) unchanged++
    else work.push({ key: m.key, hash, place, content: m.content })
  }
  const gone = [...state.keys()].filter((key) => !present.has(key))
  return { memories: memories.length, unchanged, gone, work }
}

/**
 * The plan, after deleting the vectors of memories that are gone. A registered model whose
 * table has been dropped, or holds vectors of another length than the model now answers, has
 * no valid state: it is forgotten, so everything is embedded again (through the cache).
 */
const planSync = (db: Db, model: string, dimensions: number): Plan => {
  createVectorSchema(db)
  return db.transaction(() => {
    const registered = statement(db, "SELECT table_name, dimensions FROM vector_models WHERE model = ?").get(model) as ModelRow | undefined
    if (registered !== undefined && !tableExists(db, registered.table_name)) forgetModel(db, model)
    // A model known to answer another length than its table holds: that table is void.
    if (registered !== undefined && dimensions > 0 && registered.dimensions !== dimensions) forgetModel(db, model, registered.table_name)
    const plan = readPlan(db, model)
    const table = modelInfo(db, model)?.table
    for (const key of plan.gone) deleteVector(db, model, table, key)
    return plan
  }).immediate()
}

/**
 * Writes one batch in one transaction: the cache first (vectors just computed are kept even
 * if their memory changed meanwhile), then each vector whose memory still holds the text it
 * was made from. A vector of another length than the model's table means the model changed
 * under the same id: the table is rebuilt at the new length.
 */
const writeVectors = (
  db: Db,
  model: string,
  items: ReadonlyArray<{ key: number; hash: string; place: string; vector: Float32Array }>,
  fresh: ReadonlySet<string>
): { fromCache: number; skipped: number; reset: boolean } =>
  db.transaction(() => {
    const cache = statement(db, "INSERT OR REPLACE INTO embedding_cache (model, content_hash, vector) VALUES (?, ?, ?)")
    for (const hash of fresh) {
      const item = items.find((i) => i.hash === hash)
      if (item) cache.run(model, hash, toBlob(item.vector))
    }
    let info = modelInfo(db, model)
    // What the model answers now decides the length; cached vectors only when nothing is fresh.
    const length = (items.find((i) => fresh.has(i.hash)) ?? items[0])?.vector.length
    const reset = length !== undefined && info !== undefined && info.dimensions !== length
    if (reset) {
      forgetModel(db, model, info!.table)
      info = undefined
    }
    if (info === undefined && length !== undefined) info = createModelTable(db, model, length)
    const current = statement(db, "SELECT content, project FROM memories WHERE key = ?")
    let fromCache = 0
    let skipped = 0
    for (const item of items) {
      const row = current.get(item.key) as { content: string; project: string | null } | undefined
      if (row === undefined || contentHash(row.content) !== item.hash || placeOf(row.project) !== item.place || item.vector.length !== info!.dimensions) {
        skipped++
        continue
      }
      deleteVector(db, model, info!.table, item.key)
      statement(db, `INSERT INTO ${info!.table} (rowid, embedding, place) VALUES (?, ?, ?)`).run(BigInt(item.key), item.vector, item.place)
      statement(db, "INSERT INTO vector_state (model, key, content_hash, place) VALUES (?, ?, ?, ?)").run(model, item.key, item.hash, item.place)
      if (!fresh.has(item.hash)) fromCache++
    }
    return { fromCache, skipped, reset }
  }).immediate()

/** Cached vectors by hash; one of another length than `dimensions` (when known) is stale and ignored. */
const readCache = (db: Db, model: string, hashes: ReadonlyArray<string>, dimensions: number | undefined): Map<string, Float32Array> => {
  const out = new Map<string, Float32Array>()
  const get = statement(db, "SELECT vector FROM embedding_cache WHERE model = ? AND content_hash = ?")
  for (const hash of new Set(hashes)) {
    const row = get.get(model, hash) as { vector: Buffer } | undefined
    if (row === undefined || row.vector.byteLength === 0 || row.vector.byteLength % 4 !== 0) continue
    if (dimensions !== undefined && dimensions > 0 && row.vector.byteLength !== dimensions * 4) continue
    out.set(hash, toFloat32(row.vector))
  }
  return out
}

const uniqueByHash = (work: ReadonlyArray<Work>): Work[] => {
  const seen = new Set<string>()
  return work.filter((w) => (seen.has(w.hash) ? false : (seen.add(w.hash), true)))
}
