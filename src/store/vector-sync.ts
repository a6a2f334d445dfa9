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
 * - Each learned cue has a vector of its own, in its place (cue-vector-sync.ts), kept by the
 *   same sync through the same cache.
 * - A model is known by its vector length. A model that answers another length than its stored
 *   vectors (the same id, another model behind it) voids them: they are filed again.
 */
import { Effect } from "effect"
import type { EmbedderApi } from "../embeddings/embedder.js"
import type { EmbedderUnavailable } from "../embeddings/errors.js"
import type { Progress } from "./store-maintenance.js"
import { contentHash, pooledHash, vectorTexts, type PoolWork } from "./vector-texts.js"
import { fileCueVectors, pruneCueVectors, readCuePlan, type CuePlan } from "./cue-vector-sync.js"
import { placeOf, type FiledVector, type VectorStore, type VectorTables } from "./vector-store.js"
import { embedAndFile, type FileItems, type Tally } from "./vector-batches.js"

export { contentHash } from "./vector-texts.js"
export { placeOf, type FiledVector, type MemoryText, type VectorItem, type VectorStore, type VectorTables } from "./vector-store.js"

export interface SyncCounts {
  readonly model: string
  /** Memories in the `memories` projection. */
  readonly memories: number
  /** Memories' vectors already current: nothing done. */
  readonly unchanged: number
  /** Learned cues, and how many of their vectors were already current. */
  readonly cues: number
  readonly cuesUnchanged: number
  /** Texts the embedder embedded in this sync (memories' and cues'). */
  readonly embedded: number
  /** Memories' vectors made from the embedding cache alone (no embedder call). */
  readonly cached: number
  /** Vectors deleted because their memory or cue is gone. */
  readonly removed: number
  /** Memories or cues whose text changed while they were being embedded: left for the next sync. */
  readonly skipped: number
}

/** The name under which a model's vectors record the text changes they caught up with. */
const vectorSyncName = (model: string): string => `vectors:${model}`

/** Whether the model's vectors caught up with every change of the indexed text. */
export const vectorsCurrent = (store: VectorStore, model: string): boolean =>
  store.read((tables) => tables.syncedChanges(vectorSyncName(model)) === tables.contentChanges())

/**
 * Brings the embedder's vectors up to date unless no indexed text changed since the last time:
 * one row read when nothing changed, instead of a look at every memory. When every change
 * since was to one memory (added, revised, moved, or its learned cues rewritten by an outcome:
 * each marks its memory), only those memories and their cues are looked at.
 */
export const ensureVectors = (store: VectorStore, embedder: EmbedderApi, onProgress?: Progress): Effect.Effect<void, EmbedderUnavailable> =>
  Effect.suspend((): Effect.Effect<void, EmbedderUnavailable> => {
    const name = vectorSyncName(embedder.model)
    const [changes, synced] = store.read((tables) => [tables.contentChanges(), tables.syncedChanges(name)] as const)
    if (synced === changes) return Effect.void
    const markSynced = Effect.sync(() => store.write((tables) => tables.markSynced(name, changes)))
    const all = Effect.asVoid(syncVectors(store, embedder, onProgress))
    const marked = synced === undefined ? undefined : store.read((tables) => markedOnly(tables, embedder, synced, changes))
    if (marked === undefined) return Effect.zipRight(all, markSynced)
    // A model that changed its vector length mid-way voids every vector: then all are filed again.
    const some = Effect.flatMap(syncPass(store, embedder, onProgress, marked), (pass) => (pass.reset ? all : Effect.void))
    return Effect.zipRight(some, markSynced)
  })

/**
 * The memories changed, when every change from `synced` to `changes` marked one and the model's
 * vectors have the length it answers; otherwise undefined.
 */
const markedOnly = (tables: VectorTables, embedder: EmbedderApi, synced: number, changes: number): string[] | undefined => {
  const length = tables.modelLength(embedder.model)
  if (length === undefined || (embedder.dimensions > 0 && length !== embedder.dimensions)) return undefined
  const marks = tables.markedSince(synced)
  return marks.marked === changes - synced ? marks.memoryIds : undefined
}

/**
 * Brings the model's vectors in step with the memories and their learned cues: embeds (through
 * the cache) each memory or cue filed apart whose vector is missing or was made from other
 * text, and deletes the vectors of those that are gone. Progress counts the vectors to write. Safe to run while other processes append: each
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

/** How many memories and cues still need a vector for `model` (0 when its vectors are current). */
export const pendingVectors = (tables: VectorTables, model: string): number => {
  const plan = readPlan(tables, model)
  return plan.work.length + plan.gone.length + plan.cues.work.length + plan.cues.gone.length
}

/**
 * After a purge: deletes every stored vector of a text no memory or cue holds any more, and
 * every cached one, so no trace of erased text outlives it, not even its vector. Returns how
 * many cached vectors went.
 */
export const pruneErasedVectors = (tables: VectorTables): number => {
  const memories = tables.memories().map((m) => ({ key: m.key, texts: vectorTexts(m) }))
  const held = new Map(memories.map((m) => [m.key, pooledHash(m.texts)]))
  for (const model of tables.models()) {
    for (const filed of tables.filed(model)) if (held.get(filed.key) !== filed.hash) tables.removeVector(model, filed.key)
  }
  const cueTexts = pruneCueVectors(tables)
  const live = new Set([...held.values(), ...memories.flatMap((m) => m.texts.map(contentHash)), ...cueTexts])
  const stale = tables.cacheKeys().filter((c) => !live.has(c.hash))
  for (const c of stale) tables.uncache(c.model, c.hash)
  return stale.length
}

interface Plan {
  readonly memories: number
  readonly unchanged: number
  readonly gone: ReadonlyArray<number>
  readonly work: ReadonlyArray<PoolWork>
  readonly cues: CuePlan
}

/** One pass over every memory and cue, or over the memories among `memoryIds` (new ones too) and their cues. */
const syncPass = (store: VectorStore, embedder: EmbedderApi, onProgress?: Progress, memoryIds?: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const model = embedder.model
    const plan = store.write((tables) => planSync(tables, model, embedder.dimensions, memoryIds))
    const total = plan.work.length + plan.cues.work.length
    const tally: Tally = { done: 0, embedded: 0, cached: 0, skipped: 0, reset: false }
    onProgress?.(0, total)
    yield* embedAndFile(store, embedder, plan.work, fileMemoryVectors, tally, total, onProgress)
    yield* embedAndFile(store, embedder, plan.cues.work, fileCueVectors, tally, total, onProgress)
    const counts: SyncCounts = {
      model,
      memories: plan.memories,
      unchanged: plan.unchanged,
      cues: plan.cues.cues,
      cuesUnchanged: plan.cues.unchanged,
      embedded: tally.embedded,
      cached: tally.cached,
      removed: plan.gone.length + plan.cues.gone.length,
      skipped: tally.skipped
    }
    return { counts, reset: tally.reset }
  })

/**
 * The plan, after deleting the vectors of memories and cues that are gone. A model with nothing
 * it can search, or whose vectors have another length than the model now answers, has no valid
 * state: it is forgotten, so everything is filed again (through the cache).
 */
const planSync = (tables: VectorTables, model: string, dimensions: number, memoryIds?: ReadonlyArray<string>): Plan => {
  const length = tables.modelLength(model)
  if (length === undefined || (dimensions > 0 && length !== dimensions)) tables.forgetModel(model)
  const plan = readPlan(tables, model, memoryIds)
  for (const key of plan.gone) tables.removeVector(model, key)
  for (const key of plan.cues.gone) tables.removeCueVector(model, key)
  return plan
}

/**
 * Compares the memories and cues with the model's filed vectors: what is current, what to embed,
 * what is gone. With `memoryIds`, only those memories and their cues (a memory is never deleted
 * but by a purge, which rebuilds). Reads only.
 */
const readPlan = (tables: VectorTables, model: string, memoryIds?: ReadonlyArray<string>): Plan => {
  const memories = memoryIds === undefined ? tables.memories() : tables.memoriesById(memoryIds)
  const state = new Map<number, FiledVector>()
  if (tables.modelLength(model) !== undefined) {
    for (const filed of tables.filed(model, memoryIds === undefined ? undefined : memories.map((m) => m.key))) state.set(filed.key, filed)
  }
  const present = new Set<number>()
  const work: PoolWork[] = []
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
  return { memories: memories.length, unchanged, gone, work, cues: readCuePlan(tables, model, memoryIds) }
}

/** Files each memory's vector if the memory still holds the texts and place it was made for. */
const fileMemoryVectors: FileItems = (tables, model, items, length) => {
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
  return { fromCache, skipped }
}
