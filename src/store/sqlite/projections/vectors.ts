/**
 * The `vectors` projection: one sqlite-vec `vec0` table per embedding model (cosine metric),
 * rowid = the memory's integer `key`. It is not kept inside the append transaction, because
 * embedding is slow and may fail; `syncVectors` brings it up to date afterwards and may lag
 * the log, so readers join its keys back to `memories` for liveness and scope.
 *
 * - `vector_models` maps a model id to its table and vector length. A new model is a new table:
 *   switching models rebuilds only this projection, and switching back finds the old one intact.
 * - `vector_state (model, key, content_hash, place)` says which texts each stored vector was made
 *   from (its content and written cues, pooled: store/vector-texts.ts), so a revised memory is
 *   embedded again and an unchanged one never is, and which place
 *   (`placeOf`: its project, or global) its row is filed under.
 * - Each table is partitioned by place, so a KNN query reads only the vectors of the places it
 *   searches (global and the current project) instead of the whole store (bench/search: the
 *   scan of every vector was nearly all of a hybrid search at 100,000 memories).
 * - Learned cues have vectors of their own, in a second `vec0` table per model (`<table>_cues`,
 *   rowid = the cue's key, partitioned by the place where the cue applies), with their
 *   bookkeeping in `cue_vector_state`: a cue learned in one project is searched from there only.
 * - `embedding_cache (model, content_hash, vector)` holds every vector ever computed. It is
 *   outside the log and survives `drop`, so a rebuild costs no embedding calls.
 *
 * What to embed, file and delete is decided by the sync every store shares (store/vector-sync.ts,
 * over these tables: vector-sync.ts here); reading them is vector-search.ts's.
 */
import { createRequire } from "node:module"
import type * as SqliteVec from "sqlite-vec"
import { contentHash } from "../../vector-sync.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"
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
        db.exec(`DROP TABLE IF EXISTS ${table_name}; DROP TABLE IF EXISTS ${cueTableOf(table_name)}`)
      }
    }
    db.exec("DROP TABLE IF EXISTS vector_models; DROP TABLE IF EXISTS vector_state; DROP TABLE IF EXISTS cue_vector_state")
  }
}

/** Loads sqlite-vec into this connection, once. */
export const loadVecExtension = (db: Db): void => {
  if (loaded.has(db)) return
  // Required here, not imported: a store without vectors (every agent hook's start) never pays for loading it.
  ;(createRequire(import.meta.url)("sqlite-vec") as typeof SqliteVec).load(db)
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
    ${stateTable("vector_state")}
    ${stateTable("cue_vector_state")}
    CREATE TABLE IF NOT EXISTS embedding_cache (
      model TEXT NOT NULL,
      content_hash TEXT NOT NULL,
      vector BLOB NOT NULL,
      PRIMARY KEY (model, content_hash)
    ) STRICT;
  `)
}

/** Which texts each stored vector of a table was made from, and the place it is filed under. */
const stateTable = (name: "vector_state" | "cue_vector_state") => `
    CREATE TABLE IF NOT EXISTS ${name} (
      model TEXT NOT NULL,
      key INTEGER NOT NULL,
      content_hash TEXT NOT NULL,
      place TEXT NOT NULL,
      PRIMARY KEY (model, key)
    ) STRICT, WITHOUT ROWID;`

/** `vectors_` and 8 hex digits of the model id's sha256: a safe SQL name whatever the id holds. */
export const vectorTableName = (model: string, digits = 8): string => `vectors_${contentHash(model).slice(0, digits)}`

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

// ---------------------------------------------------------------------------------------------

export interface ModelRow {
  model: string
  table_name: string
  dimensions: number
}

/** Drops a model's tables (when given), registration and state; its cache stays. */
export const forgetModel = (db: Db, model: string, table?: string): void => {
  if (table !== undefined) db.exec(`DROP TABLE IF EXISTS ${table}; DROP TABLE IF EXISTS ${cueTableOf(table)}`)
  statement(db, "DELETE FROM vector_models WHERE model = ?").run(model)
  statement(db, "DELETE FROM vector_state WHERE model = ?").run(model)
  statement(db, "DELETE FROM cue_vector_state WHERE model = ?").run(model)
}

/** The table of a model's learned cues' vectors, beside its memories' `table`. */
export const cueTableOf = (table: string): string => `${table}_cues`

export const createModelTable = (db: Db, model: string, dimensions: number): { table: string; dimensions: number } => {
  let table = vectorTableName(model)
  // Another model whose id hashes to the same 8 digits: take more digits.
  for (let digits = 16; db.prepare("SELECT 1 FROM vector_models WHERE table_name = ? AND model <> ?").get(table, model); digits += 8) {
    table = vectorTableName(model, digits)
  }
  db.exec(`DROP TABLE IF EXISTS ${table}; DROP TABLE IF EXISTS ${cueTableOf(table)}`)
  db.exec(`CREATE VIRTUAL TABLE ${table} USING vec0(embedding float[${dimensions}] distance_metric=cosine, place text partition key)`)
  createCueTable(db, table, dimensions)
  db.prepare("INSERT OR REPLACE INTO vector_models (model, table_name, dimensions) VALUES (?, ?, ?)").run(model, table, dimensions)
  return { table, dimensions }
}

/** The cues' table of a model whose table was made before cues had vectors is made when first needed. */
export const createCueTable = (db: Db, table: string, dimensions: number): void => {
  if (tableExists(db, cueTableOf(table))) return
  db.exec(`CREATE VIRTUAL TABLE ${cueTableOf(table)} USING vec0(embedding float[${dimensions}] distance_metric=cosine, place text partition key)`)
}

export const deleteCueVector = (db: Db, model: string, table: string | undefined, key: number): void => {
  if (table !== undefined && tableExists(db, cueTableOf(table))) statement(db, `DELETE FROM ${cueTableOf(table)} WHERE rowid = ?`).run(BigInt(key))
  statement(db, "DELETE FROM cue_vector_state WHERE model = ? AND key = ?").run(model, key)
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

export const toBlob = (vector: Float32Array): Buffer => Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)

/** Copies: a Buffer from SQLite may sit at an offset that Float32Array cannot view. */
export const toFloat32 = (blob: Buffer): Float32Array => {
  const out = new Float32Array(blob.byteLength / 4)
  new Uint8Array(out.buffer).set(blob)
  return out
}
