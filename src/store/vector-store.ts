/**
 * The vector tables of a store, as the sync every store shares sees them (vector-sync.ts): each
 * store implements `VectorTables` over its own tables and `VectorStore` over its transactions.
 */
import type { MemoryTexts } from "./vector-texts.js"

/** A memory's texts as the sync reads them (vector-texts.ts), by its key. */
export interface MemoryText extends MemoryTexts {
  readonly key: number
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

/** A learned cue as the sync reads it: its key, its text, the project where it applies (null: global), and its memory's. */
export interface CueText {
  readonly key: number
  readonly text: string
  readonly project: string | null
  readonly memoryProject: string | null
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
  /** The bookkeeping of the model's stored vectors: all, or those of `keys`. */
  readonly filed: (model: string, keys?: ReadonlyArray<number>) => FiledVector[]
  /** Every memory of the `memories` projection, by key. */
  readonly memories: () => MemoryText[]
  /** The memories among `ids` (memory ids), by key. */
  readonly memoriesById: (ids: ReadonlyArray<string>) => MemoryText[]
  /** The memories among `keys` that are still there. */
  readonly memoriesOf: (keys: ReadonlyArray<number>) => Map<number, MemoryText>
  readonly removeVector: (model: string, key: number) => void
  /** Files `item` in place of whatever its key had. */
  readonly fileVector: (model: string, item: VectorItem) => void
  /** Every learned cue, by key. */
  readonly learnedCues: () => CueText[]
  /** The learned cues among `keys` that are still there. */
  readonly learnedCuesOf: (keys: ReadonlyArray<number>) => Map<number, CueText>
  /** The learned cues of the memories among `ids` (memory ids). */
  readonly learnedCuesOfMemories: (ids: ReadonlyArray<string>) => CueText[]
  /** The bookkeeping of the model's stored cue vectors. */
  readonly filedCues: (model: string) => FiledVector[]
  readonly removeCueVector: (model: string, key: number) => void
  /** Files a cue's vector in place of whatever its key had. */
  readonly fileCueVector: (model: string, item: VectorItem) => void
  readonly cacheVector: (model: string, hash: string, vector: Float32Array) => void
  /** Cached vectors by hash; one of another length than `length` (when known) is stale and left out. */
  readonly cachedVectors: (model: string, hashes: ReadonlyArray<string>, length: number | undefined) => Map<string, Float32Array>
  /** Every cached vector's model and hash. */
  readonly cacheKeys: () => Array<{ readonly model: string; readonly hash: string }>
  readonly uncache: (model: string, hash: string) => void
  /** The content-change counter (bumped by every write that changes indexed text). */
  readonly contentChanges: () => number
  /**
   * The changes after `changes` that were changes to one memory (its text, project or learned
   * cues: each marks its memory, as far back as the store keeps marks), and the memories marked.
   */
  readonly markedSince: (changes: number) => { readonly marked: number; readonly memoryIds: string[] }
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

