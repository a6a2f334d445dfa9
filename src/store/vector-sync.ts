/**
 * Keeping an embedder's vectors in step with the memories, the same in every store that keeps
 * vectors: what to embed, what the embedding cache spares, what to file, what is gone, and when
 * nothing changed since the last time. Each store gives its tables (`VectorTables`) and its
 * transactions (`VectorStore`); this file decides what to do with them.
 *
 * - A memory's vector pools its content and its written cues (vector-texts.ts). It is filed
 *   under the memory's integer `key` with the hash of the texts it was made from and the place
 *   (`placeOf`) it is searched in, so a revised memory is embedded again, an unchanged one
 *   never is, and one moved to another project is filed again (from the cache).
 * - Every vector ever computed, each text's and each pool's, is cached by (model, hash),
 *   outside the log: a rebuild, a new table or a model switched back costs no embedding call,
 *   and a new cue costs one, for the cue.
 * - Embedding is slow and may fail, so it runs outside any transaction: a sync plans in one
 *   short write, embeds a batch, and files it in another short write, re-checking that each
 *   memory still holds the text it was embedded from. What it misses, the next sync picks up.
 * - A model is known by its vector length. A model that answers another length than its stored
 *   vectors (the same id, another model behind it) voids them: they are filed again.
 */
import { Effect } from "effect"
import type { EmbedderApi } from "../embeddings/embedder.js"
import { EmbedderUnavailable } from "../embeddings/errors.js"
import type { Progress } from "./store-maintenance.js"
import { contentHash, pooledHash, pooledVectors, textsToEmbed, vectorTexts, type MemoryTexts, type PooledVector, type PoolWork } from "./vector-texts.js"

export { contentHash } from "./vector-texts.js"

export interface SyncCounts {
  readonly model: string
  /** Memories in the `memories` projection. */
  readonly memories: number
  /** Vectors already current: nothing done. */
  readonly unchanged: number
  /** Texts the embedder embedded in this sync. */
  readonly embedded: number
  /** Memories' vectors made from the embedding cache alone (no embedder call). */
  readonly cached: number
  /** Vectors deleted because their memory is gone. */
  readonly removed: number
  /** Memories whose text changed while they were being embedded: left for the next sync. */
  readonly skipped: number
}

/** A memory's texts as the sync reads them: `cues` is its written cues' JSON list, as stored. */
export interface MemoryText extends MemoryTexts {
  readonly key: number
  readonly project: string | null
}

/** A stored vector's bookkeeping: the text it was made from and where it is searched. */
export interface FiledVector {
  readonly key: number
  readonly hash: string
  readonly place: string
}

export interface VectorItem extends FiledVector {
  readonly vector: Float32Array
}

/** One store's vector tables, inside a transaction of the store's (VectorStore). */
export interface VectorTables {
  /** The length of `model`'s stored vectors; undefined when it has none it can search. */
  readonly modelLength: (model: string) => number | undefined
  /** Every model that has vectors stored. */
  readonly models: () => string[]
  /** Deletes the model's vectors and their bookkeeping; its cached embeddings stay. */
  readonly forgetModel: (model: string) => void
  /** Makes room for `model`'s vectors, of `length` numbers each. */
  readonly addModel: (model: string, length: number) => void
  /** The bookkeeping of the model's stored vectors. */
  readonly filed: (model: string) => FiledVector[]
  /** Every memory of the `memories` projection, by key. */
  readonly memories: () => MemoryText[]
  /** The memories among `keys` that are still there. */
  readonly memoriesOf: (keys: ReadonlyArray<number>) => Map<number, MemoryText>
  readonly removeVector: (model: string, key: number) => void
  /** Files `item` in place of whatever its key had. */
  readonly fileVector: (model: string, item: VectorItem) => void
  readonly cacheVector: (model: string, hash: string, vector: Float32Array) => void
  /** Cached vectors by hash; one of another length than `length` (when known) is stale and left out. */
  readonly cachedVectors: (model: string, hashes: ReadonlyArray<string>, length: number | undefined) => Map<string, Float32Array>
  /** Every cached vector's model and hash. */
  readonly cacheKeys: () => Array<{ readonly model: string; readonly hash: string }>
  readonly uncache: (model: string, hash: string) => void
  /** The content-change counter (bumped by every write that changes indexed text). */
  readonly contentChanges: () => number
  /** The count `name` last caught up with. */
  readonly syncedChanges: (name: string) => number | undefined
  readonly markSynced: (name: string, changes: number) => void
}

export interface VectorStore {
  /** Runs `f` on the store as it is (reads only). */
  readonly read: <A>(f: (tables: VectorTables) => A) => A
  /** Runs `f` in one short write transaction, under the store's write lock. */
  readonly write: <A>(f: (tables: VectorTables) => A) => A
}

/** The place a memory's vector is filed under: its project, or "" for a global memory. */
export const placeOf = (project: string | null): string => project ?? ""

/** The name under which a model's vectors record the text changes they caught up with. */
const vectorSyncName = (model: string): string => `vectors:${model}`

/** Whether the model's vectors caught up with every change of the indexed text. */
export const vectorsCurrent = (store: VectorStore, model: string): boolean =>
  store.read((tables) => tables.syncedChanges(vectorSyncName(model)) === tables.contentChanges())

/**
 * Brings the embedder's vectors up to date unless no indexed text changed since the last time:
 * one row read when nothing changed, instead of a look at every memory.
 */
export const ensureVectors = (store: VectorStore, embedder: EmbedderApi, onProgress?: Progress): Effect.Effect<void, EmbedderUnavailable> =>
  Effect.suspend((): Effect.Effect<void, EmbedderUnavailable> => {
    const name = vectorSyncName(embedder.model)
    const [changes, synced] = store.read((tables) => [tables.contentChanges(), tables.syncedChanges(name)] as const)
    if (synced === changes) return Effect.void
    const markSynced = Effect.sync(() => store.write((tables) => tables.markSynced(name, changes)))
    return Effect.zipRight(syncVectors(store, embedder, onProgress), markSynced)
  })

/** Texts handed to the embedder per call, and vectors written per transaction. */
const SYNC_BATCH = 64

/**
 * Brings the model's vectors in step with `memories`: embeds (through the cache) each memory
 * whose vector is missing or was made from other text, and deletes vectors of memories that are
 * gone. Progress counts the vectors to write. Safe to run while other processes append: each
 * batch re-checks the text it embedded before filing it. Call it outside any transaction.
 */
export const syncVectors = (store: VectorStore, embedder: EmbedderApi, onProgress?: Progress): Effect.Effect<SyncCounts, EmbedderUnavailable> =>
  Effect.gen(function* () {
    const first = yield* syncPass(store, embedder, onProgress)
    if (!first.reset) return first.counts
    // The model changed its vector length mid-way: its vectors were voided, so file the rest now.
    const second = (yield* syncPass(store, embedder, onProgress)).counts
    return {
      ...second,
      embedded: first.counts.embedded + second.embedded,
      cached: first.counts.cached + second.cached,
      removed: first.counts.removed + second.removed
    }
  })

/** How many memories still need a vector for `model` (0 when its vectors are current). */
export const pendingVectors = (tables: VectorTables, model: string): number => {
  const plan = readPlan(tables, model)
  return plan.work.length + plan.gone.length
}

/**
 * After a purge: deletes every stored vector of a text no memory holds any more, and every
 * cached one, so no trace of erased text outlives it, not even its vector. Returns how many
 * cached vectors went.
 */
export const pruneErasedVectors = (tables: VectorTables): number => {
  const memories = tables.memories().map((m) => ({ key: m.key, texts: vectorTexts(m) }))
  const held = new Map(memories.map((m) => [m.key, pooledHash(m.texts)]))
  for (const model of tables.models()) {
    for (const filed of tables.filed(model)) if (held.get(filed.key) !== filed.hash) tables.removeVector(model, filed.key)
  }
  const live = new Set([...held.values(), ...memories.flatMap((m) => m.texts.map(contentHash))])
  const stale = tables.cacheKeys().filter((c) => !live.has(c.hash))
  for (const c of stale) tables.uncache(c.model, c.hash)
  return stale.length
}

type Work = PoolWork

interface Plan {
  readonly memories: number
  readonly unchanged: number
  readonly gone: ReadonlyArray<number>
  readonly work: ReadonlyArray<Work>
}

const syncPass = (store: VectorStore, embedder: EmbedderApi, onProgress?: Progress) =>
  Effect.gen(function* () {
    const model = embedder.model
    const plan = store.write((tables) => planSync(tables, model, embedder.dimensions))
    const total = plan.work.length
    let done = 0
    let embedded = 0
    let cached = 0
    let skipped = 0
    let reset = false
    onProgress?.(0, total)
    for (let i = 0; i < plan.work.length; i += SYNC_BATCH) {
      const batch = plan.work.slice(i, i + SYNC_BATCH)
      const wanted = batch.flatMap((w) => [w.hash, ...(w.texts.length > 1 ? w.texts.map(contentHash) : [])])
      const hits = store.read((tables) => tables.cachedVectors(model, wanted, embedder.dimensions || tables.modelLength(model)))
      const misses = textsToEmbed(batch, hits)
      if (misses.length > 0) {
        const vectors = yield* embedder.embed(misses.map((m) => m.text))
        if (vectors.length !== misses.length) {
          return yield* Effect.fail(
            new EmbedderUnavailable({ provider: embedder.provider, reason: `asked for ${misses.length} vectors and got ${vectors.length}` })
          )
        }
        misses.forEach((m, j) => hits.set(m.hash, vectors[j]!))
        embedded += misses.length
      }
      const embeddedNow = new Set(misses.map((m) => m.hash))
      const { items, fresh, unpooled } = pooledVectors(batch, hits, embeddedNow)
      const written = store.write((tables) => fileBatch(tables, model, items, fresh, embeddedNow))
      cached += written.fromCache
      skipped += written.skipped + unpooled
      reset ||= written.reset
      done += batch.length
      onProgress?.(done, total)
    }
    const counts: SyncCounts = { model, memories: plan.memories, unchanged: plan.unchanged, embedded, cached, removed: plan.gone.length, skipped }
    return { counts, reset }
  })

/**
 * The plan, after deleting the vectors of memories that are gone. A model with nothing it can
 * search, or whose vectors have another length than the model now answers, has no valid state:
 * it is forgotten, so everything is filed again (through the cache).
 */
const planSync = (tables: VectorTables, model: string, dimensions: number): Plan => {
  const length = tables.modelLength(model)
  if (length === undefined || (dimensions > 0 && length !== dimensions)) tables.forgetModel(model)
  const plan = readPlan(tables, model)
  for (const key of plan.gone) tables.removeVector(model, key)
  return plan
}

/** Compares the memories with the model's filed vectors: what is current, what to embed, what is gone. Reads only. */
const readPlan = (tables: VectorTables, model: string): Plan => {
  const state = new Map<number, FiledVector>()
  if (tables.modelLength(model) !== undefined) for (const filed of tables.filed(model)) state.set(filed.key, filed)
  const memories = tables.memories()
  const present = new Set<number>()
  const work: Work[] = []
  let unchanged = 0
  for (const m of memories) {
    present.add(m.key)
    const texts = vectorTexts(m)
    const hash = pooledHash(texts)
    const place = placeOf(m.project)
    const stored = state.get(m.key)
    if (stored?.hash === hash && stored.place === place) unchanged++
    else work.push({ key: m.key, hash, place, texts })
  }
  const gone = [...state.keys()].filter((key) => !present.has(key))
  return { memories: memories.length, unchanged, gone, work }
}

/**
 * Files one batch in one transaction: the cache first (vectors just computed, each text's and
 * each pool's, are kept even if their memory changed meanwhile), then each vector whose memory
 * still holds the texts and place it was made for. A vector of another length than the model's
 * stored ones means the model changed under the same id: those are voided, and the batch's
 * length is the model's from now on.
 */
const fileBatch = (
  tables: VectorTables,
  model: string,
  items: ReadonlyArray<PooledVector>,
  fresh: ReadonlyMap<string, Float32Array>,
  embeddedNow: ReadonlySet<string>
): { fromCache: number; skipped: number; reset: boolean } => {
  for (const [hash, vector] of fresh) tables.cacheVector(model, hash, vector)
  let length = tables.modelLength(model)
  // What the model answers now decides the length; cached vectors only when nothing was embedded.
  const batchLength = (embeddedNow.size > 0 ? fresh.get([...embeddedNow][0]!) : items[0]?.vector)?.length
  const reset = batchLength !== undefined && length !== undefined && length !== batchLength
  if (reset) {
    tables.forgetModel(model)
    length = undefined
  }
  if (length === undefined && batchLength !== undefined) {
    tables.addModel(model, batchLength)
    length = batchLength
  }
  const current = tables.memoriesOf(items.map((i) => i.key))
  let fromCache = 0
  let skipped = 0
  for (const item of items) {
    const row = current.get(item.key)
    if (row === undefined || pooledHash(vectorTexts(row)) !== item.hash || placeOf(row.project) !== item.place || item.vector.length !== length) {
      skipped++
      continue
    }
    tables.fileVector(model, item)
    if (!item.embedded) fromCache++
  }
  return { fromCache, skipped, reset }
}
