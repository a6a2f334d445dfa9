/**
 * The PostgreSQL store's vector tables, made where the database has pgvector (vector-support.ts)
 * and read and written by vector-tables.ts; the log's and the projections' tables are schema.ts's.
 */

/**
 * Bumped when the vector tables (VECTOR_DDL) change shape: a database whose tables are of
 * another version runs the DDL again. Their rows are derived (a sync files them again, from the
 * embedding cache), but they are not projections: a rebuild leaves them, as SQLite's does.
 */
export const PG_VECTORS_VERSION = "2"

/**
 * The tables of the embedder's vectors (vector-tables.ts), made where the `vector` extension
 * (pgvector) is in the database. `memory_vectors` holds every model's vectors, one row a memory,
 * with the hash of the text it was made from and the place it is searched in; its column has no
 * fixed length, so each model keeps its own (`vector_models`).
 *
 * No approximate index (HNSW, IVFFlat): a search reads the vectors of its places by the
 * (model, place) index and orders them by exact cosine distance, as SQLite's vec0 tables do by
 * a full scan of their partitions. An approximate index would rank differently from SQLite, and
 * filtered by place it may return fewer than the neighbours asked for; it also needs a column of
 * one length, so a table per model. The vectors are kept in the row (STORAGE MAIN) rather than
 * out of line, as pgvector's type would have them past 2 KB: 11,000 vectors of 512 numbers took
 * 26 ms to scan so, against 140 ms read from the TOAST table. `cue_vectors` holds learned cues'
 * vectors the same way, one row a cue, under the place where the cue applies.
 */
const vectorTable = (name: "memory_vectors" | "cue_vectors") => `
CREATE TABLE IF NOT EXISTS ${name} (
  model text COLLATE "C" NOT NULL,
  key bigint NOT NULL,
  content_hash text COLLATE "C" NOT NULL,
  place text COLLATE "C" NOT NULL,
  embedding vector NOT NULL,
  PRIMARY KEY (model, key)
);
ALTER TABLE ${name} ALTER COLUMN embedding SET STORAGE MAIN;
CREATE INDEX IF NOT EXISTS ${name}_place ON ${name}(model, place);`

export const VECTOR_DDL = `
CREATE TABLE IF NOT EXISTS vector_models (model text COLLATE "C" PRIMARY KEY, dimensions integer NOT NULL);
${vectorTable("memory_vectors")}
${vectorTable("cue_vectors")}
CREATE TABLE IF NOT EXISTS embedding_cache (
  model text COLLATE "C" NOT NULL,
  content_hash text COLLATE "C" NOT NULL,
  embedding vector NOT NULL,
  PRIMARY KEY (model, content_hash)
);
ALTER TABLE embedding_cache ALTER COLUMN embedding SET STORAGE MAIN;
CREATE TABLE IF NOT EXISTS derived_sync (name text COLLATE "C" PRIMARY KEY, changes bigint NOT NULL);
`

/** The vector tables, for a purge's VACUUM FULL. */
export const VECTOR_TABLES = ["vector_models", "memory_vectors", "cue_vectors", "embedding_cache"]
