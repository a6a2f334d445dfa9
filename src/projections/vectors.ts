/**
 * The `vectors` projection: one sqlite-vec `vec0` table per embedding model (cosine metric),
 * rowid = the memory's integer `key`. It is not kept inside the append transaction, because
 * embedding is slow and may fail; `syncVectors` brings it up to date afterwards and may lag
 * the log, so readers join its keys back to `memories` for liveness and scope.
 *
 * - `vector_models` maps a model id to its table and vector length. A new model is a new table:
 *   switching models rebuilds only this projection, and switching back finds the old one intact.
 * - `vector_state (model, key, content_hash, place)` says which text each stored vector was made
 *   from, so a revised memory is embedded again and an unchanged one never is, and which place
 *   (`placeOf`: its project, or global) its row is filed under.
 * - Each table is partitioned by place, so a KNN query reads only the vectors of the places it
 *   searches (global and the current project) instead of the whole store (bench/search: the
 *   scan of every vector was nearly all of a hybrid search at 100,000 memories).
 * - `embedding_cache (model, content_hash, vector)` holds every vector ever computed. It is
 *   outside the log and survives `drop`, so a rebuild costs no embedding calls.
 *
 * SQLite work is synchronous and in short transactions; only the embedding calls are effects,
 * and they run outside any transaction, so a sync never holds the write lock while it waits.
 */
import { createHash } from "node:crypto"
import * as sqliteVec from "sqlite-vec"
import type { Db } from "../store/database.js"
import { statement } from "../store/statements.js"
import type { Projection } from "./projection.js"

export const vectorsProjection: Projection = {
  name: "vectors",
  version: 1,
  create: (db) => createVectorSchema(db),
  /** Drops every model's vectors and state; the embedding cache stays, so rebuilding is cheap. */
  drop: (db) => {
    loadVecExtension(db)
    if (tableExists(db, "vector_models")) {
      for (const { table_name } of db.prepare("SELECT table_name FROM vector_models").all() as { table_name: string }[]) {
        db.exec(`DROP TABLE IF EXISTS ${table_name}`)
      }
    }
    db.exec("DROP TABLE IF EXISTS vector_models; DROP TABLE IF EXISTS vector_state")
  }
}

export interface Neighbour {
  readonly key: number
  /** Cosine similarity, 1 - cosine distance: 1 is the same direction. */
  readonly cosine: number
}

/** The largest `k` sqlite-vec accepts in one KNN query. */
export const MAX_K = 4096

/** Loads sqlite-vec into this connection, once. */
export const loadVecExtension = (db: Db): void => {
  if (loaded.has(db)) return
  sqliteVec.load(db)
  loaded.add(db)
}
const loaded = new WeakSet<Db>()

export const createVectorSchema = (db: Db): void => {
  loadVecExtension(db)
  // Tables made before they were partitioned by place are dropped; the embedding cache stays,
  // so the next sync files every vector again without one embedding call.
  if (tableExists(db, "vector_state") && !hasColumn(db, "vector_state", "place")) vectorsProjection.drop(db)
  db.exec(`
    CREATE TABLE IF NOT EXISTS vector_models (
      model TEXT PRIMARY KEY,
      table_name TEXT NOT NULL UNIQUE,
      dimensions INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE IF NOT EXISTS vector_state (
      model TEXT NOT NULL,
      key INTEGER NOT NULL,
      content_hash TEXT NOT NULL,
      place TEXT NOT NULL,
      PRIMARY KEY (model, key)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS embedding_cache (
      model TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      vector BLOB NOT NULL,
      PRIMARY KEY (model, content_hash)
    ) STRICT;
  `)
}

/** The hash a vector is cached and tracked under: sha256 of exactly the text embedded. */
export const contentHash = (text: string): string => createHash("sha256").update(text).digest("hex")

/** `vectors_` and 8 hex digits of the model id's sha256: a safe SQL name whatever the id holds. */
export const vectorTableName = (model: string, digits = 8): string => `vectors_${contentHash(model).slice(0, digits)}`

/** The place a memory's vector is filed under: its project, or "" for a global memory. */
export const placeOf = (project: string | null): string => project ?? ""

/** The places searched from `project`: global and, with a project, that project's. */
export const placesSearchedFrom = (project: string | null): string[] => (project === null ? [placeOf(null)] : [placeOf(null), placeOf(project)])

/**
 * The `k` stored vectors nearest to `query` (any memory, live or not: join `memories` to
 * filter), best first, equal distances in key order: among the given places only (one KNN
 * query per place, each reading only its partition), or among all. Empty when the model has no
 * table yet, or when `query` has another length than the table (the model changed and the next
 * sync will rebuild it).
 */
export const nearest = (db: Db, model: string, query: Float32Array, k: number, places?: ReadonlyArray<string>): Neighbour[] => {
  const info = modelInfo(db, model)
  if (info === undefined || query.length !== info.dimensions || k <= 0) return []
  const limit = Math.min(Math.floor(k), MAX_K)
  type Row = { key: number; distance: number | null }
  const rows: Row[] =
    places === undefined
      ? (statement(db, `SELECT rowid AS key, distance FROM ${info.table} WHERE embedding MATCH ? AND k = ? ORDER BY distance`).all(query, limit) as Row[])
      : places.flatMap(
          (place) =>
            statement(db, `SELECT rowid AS key, distance FROM ${info.table} WHERE embedding MATCH ? AND k = ? AND place = ? ORDER BY distance`).all(
              query,
              limit,
              place
            ) as Row[]
        )
  // Equal distances in key order, so results do not depend on where the table keeps a row.
  rows.sort((a, b) => (a.distance ?? 2) - (b.distance ?? 2) || a.key - b.key)
  return rows.slice(0, limit).map((r) => ({ key: r.key, cosine: toCosine(r.distance) }))
}

/**
 * Cosine similarity of `query` to each of `keys` that has a vector (a candidate set's vector
 * relevance). Read through the embedding cache (see `CACHED_VECTORS`): one indexed query for
 * the whole set, where a point lookup in the vec0 table costs most of a millisecond at 100,000
 * vectors. The same bytes go through the same `vec_distance_cosine`, so the values are the ones
 * the table would give.
 */
export const similarities = (db: Db, model: string, query: Float32Array, keys: Iterable<number>): Map<number, number> => {
  const out = new Map<number, number>()
  const info = modelInfo(db, model)
  if (info === undefined || query.length !== info.dimensions) return out
  const wanted = [...keys]
  if (wanted.length === 0) return out
  const rows = statement(
    db,
    `SELECT s.key AS key, ${CACHED_VECTORS.usable("c")} AS cached,
            CASE WHEN ${CACHED_VECTORS.usable("c")} THEN vec_distance_cosine(c.vector, @query) END AS distance
       FROM vector_state s LEFT JOIN embedding_cache c ON ${CACHED_VECTORS.join("s", "c")}
      WHERE s.model = @model AND s.key IN (SELECT value FROM json_each(@keys))`
  ).all({ bytes: info.dimensions * 4, query, model, keys: JSON.stringify(wanted) }) as { key: number; cached: number; distance: number | null }[]
  const lookup = statement(db, `SELECT vec_distance_cosine(embedding, ?) AS distance FROM ${info.table} WHERE rowid = ?`)
  for (const r of rows) {
    if (r.cached) out.set(r.key, toCosine(r.distance))
    else {
      const row = lookup.get(query, BigInt(r.key)) as { distance: number | null } | undefined
      if (row) out.set(r.key, toCosine(row.distance))
    }
  }
  return out
}

/**
 * Cosine similarity of two memories' vectors (near-duplicate checks); undefined if either has
 * none. Through the embedding cache like `similarities`, the table being the fallback.
 */
export const cosineBetween = (db: Db, model: string, keyA: number, keyB: number): number | undefined => {
  const info = modelInfo(db, model)
  if (info === undefined) return undefined
  const cached = statement(
    db,
    `SELECT vec_distance_cosine(ca.vector, cb.vector) AS distance
       FROM vector_state sa JOIN embedding_cache ca ON ${CACHED_VECTORS.join("sa", "ca")},
            vector_state sb JOIN embedding_cache cb ON ${CACHED_VECTORS.join("sb", "cb")}
      WHERE sa.model = @model AND sa.key = @a AND sb.model = @model AND sb.key = @b AND ${CACHED_VECTORS.usable("ca")} AND ${CACHED_VECTORS.usable("cb")}`
  ).get({ model, a: keyA, b: keyB, bytes: info.dimensions * 4 }) as { distance: number | null } | undefined
  if (cached !== undefined) return toCosine(cached.distance)
  const row = statement(
    db,
    `SELECT vec_distance_cosine(a.embedding, b.embedding) AS distance FROM ${info.table} a, ${info.table} b WHERE a.rowid = ? AND b.rowid = ?`
  ).get(BigInt(keyA), BigInt(keyB)) as { distance: number | null } | undefined
  return row === undefined ? undefined : toCosine(row.distance)
}

/**
 * Reading stored vectors through `embedding_cache`: every vector in a model's table was written,
 * in the same transaction as its `vector_state` row, from the cache row of that text's hash
 * (a fresh vector is cached first), and a cache row is replaced only when it was missing or of
 * the wrong length. So the cache row of a key's `content_hash` holds the very bytes its table
 * row holds. It can be missing (a purge pruned it, or the cache was dropped): then, and for a
 * row of the wrong length, callers read the table.
 */
const CACHED_VECTORS = {
  join: (state: string, cache: string) => `${cache}.model = ${state}.model AND ${cache}.content_hash = ${state}.content_hash`,
  /** True when the cache row exists and has the table's vector length in bytes (the `@bytes` parameter). */
  usable: (cache: string) => `(${cache}.vector IS NOT NULL AND length(${cache}.vector) = @bytes)`
} as const

/** One memory's stored vector. */
export const vectorOf = (db: Db, model: string, key: number): Float32Array | undefined => {
  const info = modelInfo(db, model)
  if (info === undefined) return undefined
  const row = statement(db, `SELECT embedding FROM ${info.table} WHERE rowid = ?`).get(BigInt(key)) as { embedding: Buffer } | undefined
  return row === undefined ? undefined : toFloat32(row.embedding)
}

export interface VectorModelStatus {
  readonly model: string
  readonly table: string
  readonly dimensions: number
  /** Vectors stored. */
  readonly vectors: number
}

/** Every model with a vector table (for `mem stats` / `mem doctor`). */
export const listVectorModels = (db: Db): VectorModelStatus[] => {
  if (!tableExists(db, "vector_models")) return []
  loadVecExtension(db)
  const rows = db.prepare("SELECT model, table_name, dimensions FROM vector_models ORDER BY model").all() as ModelRow[]
  return rows
    .filter((r) => tableExists(db, r.table_name))
    .map((r) => ({
      model: r.model,
      table: r.table_name,
      dimensions: r.dimensions,
      vectors: (db.prepare(`SELECT count(*) AS n FROM vector_state WHERE model = ?`).get(r.model) as { n: number }).n
    }))
}

/** Forgets one model's vectors (its table and state); its cached embeddings stay unless asked. */
export const dropVectorModel = (db: Db, model: string, options: { readonly cache?: boolean } = {}): void => {
  createVectorSchema(db)
  db.transaction(() => {
    forgetModel(db, model, modelInfo(db, model)?.table)
    if (options.cache) db.prepare("DELETE FROM embedding_cache WHERE model = ?").run(model)
  }).immediate()
}

/**
 * Deletes cached embeddings of texts no memory holds any more (after purge: no trace of
 * purged text should outlive it, not even its vector). Returns how many were deleted.
 */
export const pruneEmbeddingCache = (db: Db): number => {
  createVectorSchema(db)
  const live = new Set((db.prepare("SELECT content FROM memories").all() as { content: string }[]).map((r) => contentHash(r.content)))
  const stale = (db.prepare("SELECT rowid AS id, content_hash FROM embedding_cache").all() as { id: number; content_hash: string }[]).filter(
    (r) => !live.has(r.content_hash)
  )
  const remove = db.prepare("DELETE FROM embedding_cache WHERE rowid = ?")
  db.transaction(() => {
    for (const r of stale) remove.run(r.id)
  }).immediate()
  return stale.length
}

// ---------------------------------------------------------------------------------------------

export interface ModelRow {
  model: string
  table_name: string
  dimensions: number
}

/** Drops a model's table (when given), registration and state; its cache stays. */
export const forgetModel = (db: Db, model: string, table?: string): void => {
  if (table !== undefined) db.exec(`DROP TABLE IF EXISTS ${table}`)
  statement(db, "DELETE FROM vector_models WHERE model = ?").run(model)
  statement(db, "DELETE FROM vector_state WHERE model = ?").run(model)
}

export const createModelTable = (db: Db, model: string, dimensions: number): { table: string; dimensions: number } => {
  let table = vectorTableName(model)
  // Another model whose id hashes to the same 8 digits: take more digits.
  for (let digits = 16; db.prepare("SELECT 1 FROM vector_models WHERE table_name = ? AND model <> ?").get(table, model); digits += 8) {
    table = vectorTableName(model, digits)
  }
  db.exec(`DROP TABLE IF EXISTS ${table}`)
  db.exec(`CREATE VIRTUAL TABLE ${table} USING vec0(embedding float[${dimensions}] distance_metric=cosine, place text partition key)`)
  db.prepare("INSERT OR REPLACE INTO vector_models (model, table_name, dimensions) VALUES (?, ?, ?)").run(model, table, dimensions)
  return { table, dimensions }
}

export const deleteVector = (db: Db, model: string, table: string | undefined, key: number): void => {
  if (table !== undefined) statement(db, `DELETE FROM ${table} WHERE rowid = ?`).run(BigInt(key))
  statement(db, "DELETE FROM vector_state WHERE model = ? AND key = ?").run(model, key)
}

export const modelInfo = (db: Db, model: string): { table: string; dimensions: number } | undefined => {
  if (!tableExists(db, "vector_models")) return undefined
  loadVecExtension(db)
  const row = statement(db, "SELECT table_name, dimensions FROM vector_models WHERE model = ?").get(model) as ModelRow | undefined
  return row === undefined || !tableExists(db, row.table_name) ? undefined : { table: row.table_name, dimensions: row.dimensions }
}

const hasColumn = (db: Db, table: string, column: string): boolean =>
  (db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).some((c) => c.name === column)

export const tableExists = (db: Db, name: string): boolean =>
  statement(db, "SELECT 1 FROM sqlite_schema WHERE name = ?").get(name) !== undefined

/** A null distance (a zero vector on either side) is no similarity at all. */
const toCosine = (distance: number | null): number => (distance === null ? 0 : 1 - distance)

export const toBlob = (vector: Float32Array): Buffer => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)

/** Copies: a Buffer from SQLite may sit at an offset that Float32Array cannot view. */
export const toFloat32 = (blob: Buffer): Float32Array => {
  const out = new Float32Array(blob.byteLength / 4)
  new Uint8Array(out.buffer).set(blob)
  return out
}
