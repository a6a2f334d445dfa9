/**
 * The vectors projection's tables (vectors.ts) as the sync every store shares sees them
 * (store/vector-sync.ts, which decides what to embed, file and delete). Reads run on the
 * connection as it is; each write is a short IMMEDIATE transaction of its own, so a sync never
 * holds the write lock while the embedder works.
 */
import type { Effect } from "effect"
import type { EmbedderApi } from "../../../embeddings/embedder.js"
import type { EmbedderUnavailable } from "../../../embeddings/errors.js"
import type { Progress } from "../../store-maintenance.js"
import * as shared from "../../vector-sync.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { contentChanges, markedSince, markSynced, syncedChanges } from "./content-changes.js"
import {
  createCueTable,
  createModelTable,
  createVectorSchema,
  cueTableOf,
  deleteCueVector,
  deleteVector,
  forgetModel,
  modelInfo,
  tableExists,
  toBlob,
  toFloat32
} from "./vectors.js"
import type { CueText } from "../../vector-store.js"

export type { SyncCounts } from "../../vector-sync.js"

/** The SQLite file's vector tables, for the shared sync. */
export const sqliteVectorStore = (db: Db): shared.VectorStore => {
  const tables = sqliteVectorTables(db)
  return {
    read: (f) => f(tables),
    write: (f) => {
      createVectorSchema(db)
      return db.transaction(() => f(tables)).immediate()
    }
  }
}

/** Brings `embedder`'s vectors in step with `memories` (store/vector-sync.ts). Call it outside any transaction. */
export const syncVectors = (db: Db, embedder: EmbedderApi, onProgress?: Progress): Effect.Effect<shared.SyncCounts, EmbedderUnavailable> =>
  shared.syncVectors(sqliteVectorStore(db), embedder, onProgress)

/**
 * After a purge: deletes the vectors and cached embeddings of texts no memory holds any more
 * (store/vector-sync.ts), in one transaction. Returns how many cached embeddings went.
 */
export const pruneErasedVectors = (db: Db): number => sqliteVectorStore(db).write(shared.pruneErasedVectors)

/** How many memories still need a vector for `model` (0 when the projection is current). */
export const pendingVectors = (db: Db, model: string): number =>
  tableExists(db, "memories") ? shared.pendingVectors(sqliteVectorTables(db), model) : 0

/** A memory's texts (vector-texts.ts): its learned cues as [text, project] pairs. */
const MEMORY_TEXTS = `key, content, cues, project,
  (SELECT json_group_array(json_array(c.text, c.project)) FROM learned_cues c WHERE c.memory_id = m.id) AS learned`

/** A learned cue with its memory's project (cue-vector-sync.ts). */
const CUE_TEXTS = "c.key, c.text, c.project, m.project AS memoryProject FROM learned_cues c JOIN memories m ON m.id = c.memory_id"

const sqliteVectorTables = (db: Db): shared.VectorTables => ({
  modelLength: (model) => modelInfo(db, model)?.dimensions,
  models: () =>
    tableExists(db, "vector_models")
      ? (statement(db, "SELECT model FROM vector_models ORDER BY model").all() as { model: string }[]).map((r) => r.model)
      : [],
  forgetModel: (model) => {
    const registered = statement(db, "SELECT table_name FROM vector_models WHERE model = ?").get(model) as { table_name: string } | undefined
    forgetModel(db, model, registered?.table_name)
  },
  addModel: (model, length) => void createModelTable(db, model, length),
  filed: (model, keys) => {
    if (!tableExists(db, "vector_state")) return []
    if (keys === undefined) return statement(db, "SELECT key, content_hash AS hash, place FROM vector_state WHERE model = ?").all(model) as shared.FiledVector[]
    const get = statement(db, "SELECT key, content_hash AS hash, place FROM vector_state WHERE model = ? AND key = ?")
    return keys.flatMap((key) => (get.get(model, key) as shared.FiledVector | undefined) ?? [])
  },
  memories: () => statement(db, `SELECT ${MEMORY_TEXTS} FROM memories m ORDER BY key`).all() as shared.MemoryText[],
  memoriesById: (ids) => {
    const get = statement(db, `SELECT ${MEMORY_TEXTS} FROM memories m WHERE id = ?`)
    return ids.flatMap((id) => (get.get(id) as shared.MemoryText | undefined) ?? [])
  },
  memoriesOf: (keys) => {
    const get = statement(db, `SELECT ${MEMORY_TEXTS} FROM memories m WHERE key = ?`)
    return new Map(keys.flatMap((key) => (get.get(key) as shared.MemoryText | undefined) ?? []).map((m) => [m.key, m]))
  },
  removeVector: (model, key) => deleteVector(db, model, modelInfo(db, model)?.table, key),
  fileVector: (model, item) => {
    const table = modelInfo(db, model)!.table
    deleteVector(db, model, table, item.key)
    statement(db, `INSERT INTO ${table} (rowid, embedding, place) VALUES (?, ?, ?)`).run(BigInt(item.key), item.vector, item.place)
    statement(db, "INSERT INTO vector_state (model, key, content_hash, place) VALUES (?, ?, ?, ?)").run(model, item.key, item.hash, item.place)
  },
  learnedCues: () => (tableExists(db, "learned_cues") ? (statement(db, `SELECT ${CUE_TEXTS} ORDER BY c.key`).all() as CueText[]) : []),
  learnedCuesOf: (keys) => {
    const get = statement(db, `SELECT ${CUE_TEXTS} WHERE c.key = ?`)
    return new Map(keys.flatMap((key) => (get.get(key) as CueText | undefined) ?? []).map((c) => [c.key, c]))
  },
  learnedCuesOfMemories: (ids) => {
    if (!tableExists(db, "learned_cues")) return []
    const get = statement(db, `SELECT ${CUE_TEXTS} WHERE c.memory_id = ? ORDER BY c.key`)
    return ids.flatMap((id) => get.all(id) as CueText[])
  },
  filedCues: (model) =>
    tableExists(db, "cue_vector_state")
      ? (statement(db, "SELECT key, content_hash AS hash, place FROM cue_vector_state WHERE model = ?").all(model) as shared.FiledVector[])
      : [],
  removeCueVector: (model, key) => deleteCueVector(db, model, modelInfo(db, model)?.table, key),
  fileCueVector: (model, item) => {
    const { table, dimensions } = modelInfo(db, model)!
    createCueTable(db, table, dimensions)
    deleteCueVector(db, model, table, item.key)
    statement(db, `INSERT INTO ${cueTableOf(table)} (rowid, embedding, place) VALUES (?, ?, ?)`).run(BigInt(item.key), item.vector, item.place)
    statement(db, "INSERT INTO cue_vector_state (model, key, content_hash, place) VALUES (?, ?, ?, ?)").run(model, item.key, item.hash, item.place)
  },
  cacheVector: (model, hash, vector) =>
    void statement(db, "INSERT OR REPLACE INTO embedding_cache (model, content_hash, vector) VALUES (?, ?, ?)").run(model, hash, toBlob(vector)),
  cachedVectors: (model, hashes, length) => {
    const out = new Map<string, Float32Array>()
    if (!tableExists(db, "embedding_cache")) return out
    const get = statement(db, "SELECT vector FROM embedding_cache WHERE model = ? AND content_hash = ?")
    for (const hash of new Set(hashes)) {
      const row = get.get(model, hash) as { vector: Buffer } | undefined
      if (row === undefined || row.vector.byteLength === 0 || row.vector.byteLength % 4 !== 0) continue
      if (length !== undefined && length > 0 && row.vector.byteLength !== length * 4) continue
      out.set(hash, toFloat32(row.vector))
    }
    return out
  },
  cacheKeys: () =>
    tableExists(db, "embedding_cache")
      ? (statement(db, "SELECT model, content_hash AS hash FROM embedding_cache").all() as Array<{ model: string; hash: string }>)
      : [],
  uncache: (model, hash) => void statement(db, "DELETE FROM embedding_cache WHERE model = ? AND content_hash = ?").run(model, hash),
  contentChanges: () => contentChanges(db),
  markedSince: (changes) => markedSince(db, changes),
  syncedChanges: (name) => syncedChanges(db, name),
  markSynced: (name, changes) => markSynced(db, name, changes)
})
