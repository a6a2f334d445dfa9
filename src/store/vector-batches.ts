/**
 * A sync's batches (vector-sync.ts): the texts of a batch that the cache does not hold are
 * embedded in one call, the vectors pooled, and the batch filed in one short write, by a filer
 * for its kind (memories' or learned cues' vectors) that re-checks what each was made from.
 */
import { Effect } from "effect"
import type { EmbedderApi } from "../embeddings/embedder.js"
import { EmbedderUnavailable } from "../embeddings/errors.js"
import type { Progress } from "./store-maintenance.js"
import { contentHash, pooledVectors, textsToEmbed, type PooledVector, type PoolWork } from "./vector-texts.js"
import type { VectorStore, VectorTables } from "./vector-store.js"

/** Texts handed to the embedder per call, and vectors written per transaction. */
const SYNC_BATCH = 64

/** What a pass has done so far, over memories then cues. */
export interface Tally {
  done: number
  embedded: number
  cached: number
  skipped: number
  reset: boolean
}

/** Files a batch's vectors of one kind (memories' or cues'), each only if what it was made from is still there. */
export type FileItems = (tables: VectorTables, model: string, items: ReadonlyArray<PooledVector>, length: number | undefined) => { fromCache: number; skipped: number }

/** Embeds (through the cache) and files `work` in batches, adding to `tally`. */
export const embedAndFile = (
  store: VectorStore,
  embedder: EmbedderApi,
  work: ReadonlyArray<PoolWork>,
  fileItems: FileItems,
  tally: Tally,
  total: number,
  onProgress?: Progress
) =>
  Effect.gen(function* () {
    const model = embedder.model
    for (let i = 0; i < work.length; i += SYNC_BATCH) {
      const batch = work.slice(i, i + SYNC_BATCH)
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
        tally.embedded += misses.length
      }
      const embeddedNow = new Set(misses.map((m) => m.hash))
      const { items, fresh, unpooled } = pooledVectors(batch, hits, embeddedNow)
      const written = store.write((tables) => fileBatch(tables, model, items, fresh, embeddedNow, fileItems))
      tally.cached += written.fromCache
      tally.skipped += written.skipped + unpooled
      tally.reset ||= written.reset
      tally.done += batch.length
      onProgress?.(tally.done, total)
    }
  })

/**
 * Files one batch in one transaction: the cache first (vectors just computed, each text's and
 * each pool's, are kept even if their memory changed meanwhile), then, through `fileItems`, each
 * vector whose memory or cue still holds the texts and place it was made for. A vector of
 * another length than the model's stored ones means the model changed under the same id: those
 * are voided, and the batch's length is the model's from now on.
 */
const fileBatch = (
  tables: VectorTables,
  model: string,
  items: ReadonlyArray<PooledVector>,
  fresh: ReadonlyMap<string, Float32Array>,
  embeddedNow: ReadonlySet<string>,
  fileItems: FileItems
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
  return { ...fileItems(tables, model, items, length), reset }
}

