/**
 * The embedder's vectors on PostgreSQL, with pgvector (tables in vector-schema.ts): the
 * tables as the sync every store shares sees them (store/vector-sync.ts decides what to embed,
 * file and delete), and the two questions the shared vector reads ask (store/vector-reads.ts):
 * the nearest vectors among places, and the cosine of given memories, by pgvector's cosine
 * distance (`<=>`). Vectors cross the wire as pgvector's text (`[0.1,0.2,...]`): a float32's
 * shortest decimal reads back as the same float32, so what is filed is what was embedded.
 */
import type { PgLedger } from "./pg-ledger.js"
import type { SyncPg } from "./sync-client.js"
import type { FiledVector, MemoryText, VectorItem, VectorStore, VectorTables } from "../vector-store.js"
import type { CueText } from "../vector-store.js"
import { toCosine, type Neighbour, type VectorSearch } from "../vector-reads.js"

/** The vector tables under the store's transactions: reads on one snapshot, writes under the write lock. */
export const pgVectorStore = (ledger: PgLedger): VectorStore => ({
  read: (f) => ledger.read((db) => f(pgVectorTables(db))),
  write: (f) => ledger.writeOrThrow((tx) => f(pgVectorTables(tx.db)))
})

/** A memory's texts (vector-texts.ts): its learned cues as [text, project] pairs. */
const MEMORY_TEXTS = `key, content, cues, project,
  (SELECT json_agg(json_build_array(c.text, c.project))::text FROM learned_cues c WHERE c.memory_id = m.id) AS learned`

/** A learned cue with its memory's project (cue-vector-sync.ts). */
const CUE_TEXTS = `c.key, c.text, c.project, m.project AS "memoryProject" FROM learned_cues c JOIN memories m ON m.id = c.memory_id`

export const pgVectorTables = (db: SyncPg): VectorTables => ({
  modelLength: (model) => db.one<{ dimensions: number }>("SELECT dimensions FROM vector_models WHERE model = $1", [model])?.dimensions,
  models: () => db.query<{ model: string }>("SELECT model FROM vector_models ORDER BY model").map((r) => r.model),
  forgetModel: (model) => {
    db.run("DELETE FROM memory_vectors WHERE model = $1", [model])
    db.run("DELETE FROM cue_vectors WHERE model = $1", [model])
    db.run("DELETE FROM vector_models WHERE model = $1", [model])
  },
  addModel: (model, length) =>
    db.run("INSERT INTO vector_models (model, dimensions) VALUES ($1, $2) ON CONFLICT (model) DO UPDATE SET dimensions = excluded.dimensions", [
      model,
      length
    ]),
  filed: (model, keys) =>
    keys === undefined
      ? db.query<FiledVector>("SELECT key, content_hash AS hash, place FROM memory_vectors WHERE model = $1", [model])
      : db.query<FiledVector>("SELECT key, content_hash AS hash, place FROM memory_vectors WHERE model = $1 AND key = ANY($2)", [model, keys]),
  memoriesById: (ids) => db.query<MemoryText>(`SELECT ${MEMORY_TEXTS} FROM memories m WHERE id = ANY($1) ORDER BY key`, [ids]),
  memories: () => db.query<MemoryText>(`SELECT ${MEMORY_TEXTS} FROM memories m ORDER BY key`),
  memoriesOf: (keys) => new Map(db.query<MemoryText>(`SELECT ${MEMORY_TEXTS} FROM memories m WHERE key = ANY($1)`, [keys]).map((m) => [m.key, m])),
  removeVector: (model, key) => db.run("DELETE FROM memory_vectors WHERE model = $1 AND key = $2", [model, key]),
  fileVector: (model, item) => fileInto(db, "memory_vectors", model, item),
  learnedCues: () => db.query<CueText>(`SELECT ${CUE_TEXTS} ORDER BY c.key`),
  learnedCuesOf: (keys) => new Map(db.query<CueText>(`SELECT ${CUE_TEXTS} WHERE c.key = ANY($1)`, [keys]).map((c) => [c.key, c])),
  learnedCuesOfMemories: (ids) => db.query<CueText>(`SELECT ${CUE_TEXTS} WHERE c.memory_id = ANY($1) ORDER BY c.key`, [ids]),
  filedCues: (model) => db.query<FiledVector>("SELECT key, content_hash AS hash, place FROM cue_vectors WHERE model = $1", [model]),
  removeCueVector: (model, key) => db.run("DELETE FROM cue_vectors WHERE model = $1 AND key = $2", [model, key]),
  fileCueVector: (model, item) => fileInto(db, "cue_vectors", model, item),
  cacheVector: (model, hash, vector) =>
    db.run(
      `INSERT INTO embedding_cache (model, content_hash, embedding) VALUES ($1, $2, $3::vector)
         ON CONFLICT (model, content_hash) DO UPDATE SET embedding = excluded.embedding`,
      [model, hash, vectorText(vector)]
    ),
  cachedVectors: (model, hashes, length) =>
    new Map(
      db
        .query<{ hash: string; embedding: string }>(
          `SELECT content_hash AS hash, embedding::text AS embedding FROM embedding_cache
            WHERE model = $1 AND content_hash = ANY($2) AND ($3::integer IS NULL OR vector_dims(embedding) = $3)`,
          [model, [...new Set(hashes)], length !== undefined && length > 0 ? length : null]
        )
        .map((r) => [r.hash, parseVector(r.embedding)])
    ),
  cacheKeys: () => db.query<{ model: string; hash: string }>("SELECT model, content_hash AS hash FROM embedding_cache"),
  uncache: (model, hash) => db.run("DELETE FROM embedding_cache WHERE model = $1 AND content_hash = $2", [model, hash]),
  contentChanges: () => db.one<{ n: number }>("SELECT n FROM content_changes WHERE id = 1")?.n ?? 0,
  markedSince: (changes) => {
    const rows = db.query<{ memory_id: string }>("SELECT memory_id FROM change_marks WHERE change > $1", [changes])
    return { marked: rows.length, memoryIds: [...new Set(rows.map((r) => r.memory_id))] }
  },
  syncedChanges: (name) => db.one<{ changes: number }>("SELECT changes FROM derived_sync WHERE name = $1", [name])?.changes,
  markSynced: (name, changes) =>
    db.run("INSERT INTO derived_sync (name, changes) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET changes = excluded.changes", [
      name,
      changes
    ])
})

/** Files `item` in `table` in place of whatever its key had. */
const fileInto = (db: SyncPg, table: "memory_vectors" | "cue_vectors", model: string, item: VectorItem): void =>
  db.run(
    `INSERT INTO ${table} (model, key, content_hash, place, embedding) VALUES ($1, $2, $3, $4, $5::vector)
       ON CONFLICT (model, key) DO UPDATE SET content_hash = excluded.content_hash, place = excluded.place, embedding = excluded.embedding`,
    [model, item.key, item.hash, item.place, vectorText(item.vector)]
  )

/** The largest `k` one search reads, as SQLite's vec0 tables allow. */
const MAX_K = 4096

/**
 * Exact nearest neighbours: every vector of the places, ordered by cosine distance, equal
 * distances in key order. A stored vector of another length than the query's (the model
 * changed; the next sync refiles it) is no neighbour: `<=>` is asked only of equal lengths.
 */
export const pgVectorSearch = (db: SyncPg): VectorSearch => ({
  nearest: (model, query, k, places) => nearestIn(db, "memory_vectors", model, query, k, places),
  nearestCues: (model, query, k, places) => nearestIn(db, "cue_vectors", model, query, k, places),
  similarities: (model, query, keys) => {
    if (keys.length === 0) return new Map()
    const rows = db.query<{ key: number; distance: number | null }>(
      `SELECT key, embedding <=> $2::vector AS distance FROM memory_vectors
        WHERE model = $1 AND key = ANY($3) AND vector_dims(embedding) = $4`,
      [model, vectorText(query), keys, query.length]
    )
    return new Map(rows.map((r) => [r.key, toCosine(r.distance)]))
  }
})

const nearestIn = (
  db: SyncPg,
  table: "memory_vectors" | "cue_vectors",
  model: string,
  query: Float32Array,
  k: number,
  places: ReadonlyArray<string>
): Neighbour[] => {
  if (k <= 0) return []
  return db
    .query<{ key: number; distance: number | null }>(
      `SELECT key, embedding <=> $2::vector AS distance FROM ${table}
        WHERE model = $1 AND place = ANY($3) AND vector_dims(embedding) = $4
        ORDER BY distance, key LIMIT $5`,
      [model, vectorText(query), places, query.length, Math.min(Math.floor(k), MAX_K)]
    )
    .map((r) => ({ key: r.key, cosine: toCosine(r.distance) }))
}

/** Cosine similarity of two memories' vectors (near-duplicate checks); undefined if either has none. */
export const cosineBetween = (db: SyncPg, model: string, keyA: number, keyB: number): number | undefined => {
  const row = db.one<{ distance: number | null }>(
    `SELECT CASE WHEN vector_dims(a.embedding) = vector_dims(b.embedding) THEN a.embedding <=> b.embedding END AS distance
       FROM memory_vectors a JOIN memory_vectors b ON b.model = a.model AND b.key = $3
      WHERE a.model = $1 AND a.key = $2`,
    [model, keyA, keyB]
  )
  return row === undefined ? undefined : toCosine(row.distance)
}

/** A vector in pgvector's text form. */
const vectorText = (vector: Float32Array): string => `[${vector.join(",")}]`

const parseVector = (text: string): Float32Array => Float32Array.from(JSON.parse(text) as number[])
