/**
 * Reading the vectors projection (vectors.ts): the nearest stored vectors to a query, among the
 * places a search covers, and the cosine of a query or a memory to given memories. Writing and
 * keeping the tables is vectors.ts's and vector-sync.ts's.
 */
import { toCosine, type Neighbour, type VectorSearch } from "../../vector-reads.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { askThread, collectAnswer, timedHere, type Question } from "../read-offload.js"
import { cueTableOf, modelInfo, tableExists, toFloat32 } from "./vectors.js"

/** The two questions the shared vector reads (store/vector-reads.ts) ask of this file's tables. */
export const sqliteVectorSearch = (db: Db): VectorSearch => ({
  nearest: (model, query, k, places) => nearest(db, model, query, k, places),
  nearestCues: (model, query, k, places) => nearestCues(db, model, query, k, places),
  similarities: (model, query, keys) => similarities(db, model, query, keys)
})

/**
 * Starts the nearest-neighbour search `nearest` will be asked for on the store's reader thread,
 * when it has one (read-offload.ts), so that it runs while the caller does other reads.
 */
export const prefetchNearest = (db: Db, model: string, query: Float32Array, k: number, places: ReadonlyArray<string>): void => {
  const info = modelInfo(db, model)
  if (info === undefined || query.length !== info.dimensions || k <= 0) return
  const limit = Math.min(Math.floor(k), MAX_K)
  askThread(db, nearestQuestion(model, query, limit, places), () => places.map((place) => ({ sql: knnInPlace(info.table), params: [query, limit, place] })))
}

const nearestQuestion = (model: string, vector: Float32Array, limit: number, places: ReadonlyArray<string>): Question => ({
  key: JSON.stringify(["nearest", model, limit, places]),
  vector
})

const knnInPlace = (table: string) => `SELECT rowid AS key, distance FROM ${table} WHERE embedding MATCH ? AND k = ? AND place = ? ORDER BY distance`

/** The largest `k` sqlite-vec accepts in one KNN query. */
const MAX_K = 4096

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
  const asked = places === undefined ? undefined : collectAnswer(db, nearestQuestion(model, query, limit, places))
  const rows: Row[] =
    asked !== undefined
      ? asked.flatMap((placeRows) => placeRows.map(([key, distance]) => ({ key: key as number, distance: distance as number | null })))
      : places === undefined
        ? (statement(db, `SELECT rowid AS key, distance FROM ${info.table} WHERE embedding MATCH ? AND k = ? ORDER BY distance`).all(query, limit) as Row[])
        : timedHere(db, () => places.flatMap((place) => statement(db, knnInPlace(info.table)).all(query, limit, place) as Row[]))
  // Equal distances in key order, so results do not depend on where the table keeps a row.
  rows.sort((a, b) => (a.distance ?? 2) - (b.distance ?? 2) || a.key - b.key)
  return rows.slice(0, limit).map((r) => ({ key: r.key, cosine: toCosine(r.distance) }))
}

/**
 * The `k` learned cues' vectors nearest to `query` among the given places, best first, equal
 * distances in key order: one KNN query per place, each reading its partition of the model's
 * cues' table. Empty when the model has no such table yet.
 */
const nearestCues = (db: Db, model: string, query: Float32Array, k: number, places: ReadonlyArray<string>): Neighbour[] => {
  const info = modelInfo(db, model)
  if (info === undefined || query.length !== info.dimensions || k <= 0 || !tableExists(db, cueTableOf(info.table))) return []
  const limit = Math.min(Math.floor(k), MAX_K)
  const rows = places.flatMap(
    (place) => statement(db, knnInPlace(cueTableOf(info.table))).all(query, limit, place) as Array<{ key: number; distance: number | null }>
  )
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
