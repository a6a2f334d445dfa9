/**
 * Whether this database keeps the embedder's vectors: it does where pgvector's `vector`
 * extension is in it, or can be added by this role, and then the vector tables are made (once,
 * under the write lock, as the log's are). Where it cannot, the store works as a keyword store
 * and says why (`doctor`'s "vectors" check): opening never fails for want of pgvector. Asked at
 * every opening, so a database whose extension is added later keeps vectors from the next one;
 * once the tables are made, that costs one query.
 */
import { WRITE_LOCK, metaValue, setMeta } from "./schema.js"
import { PG_VECTORS_VERSION, VECTOR_DDL } from "./vector-schema.js"
import type { SyncPg } from "./sync-client.js"

export type VectorSupport =
  | { readonly kept: true; readonly version: string }
  | { readonly kept: false; readonly reason: string }

/** What this database and role allow; makes the vector tables when they may be made. Outside any transaction. */
export const openVectors = (db: SyncPg): VectorSupport => {
  const state = db.one<{ installed: string | null; schema: string | null; found: boolean; tables: boolean }>(
    `SELECT e.extversion AS installed, e.extnamespace::regnamespace::text AS schema,
            to_regtype('vector') IS NOT NULL AS found, to_regclass('memory_vectors') IS NOT NULL AS tables
       FROM (SELECT 1) one LEFT JOIN pg_extension e ON e.extname = 'vector'`
  )!
  if (state.installed !== null && !state.found) {
    return { kept: false, reason: `pgvector is installed in the schema ${state.schema}, which is not on this role's search_path` }
  }
  if (state.installed !== null && state.tables && metaValue(db, "vectors") === PG_VECTORS_VERSION) {
    return { kept: true, version: state.installed }
  }
  if (state.installed === null) {
    const refused = mayNotAdd(db)
    if (refused !== undefined) return { kept: false, reason: refused }
  }
  try {
    db.execute("BEGIN")
    db.query("SELECT pg_advisory_xact_lock($1)", [WRITE_LOCK])
    // Another process may have added it since the look above: IF NOT EXISTS, under the lock.
    db.execute("CREATE EXTENSION IF NOT EXISTS vector")
    db.execute(VECTOR_DDL)
    setMeta(db, "vectors", PG_VECTORS_VERSION)
    const version = db.one<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'")!.v
    db.execute("COMMIT")
    return { kept: true, version }
  } catch (error) {
    db.discard()
    db.execute("ROLLBACK")
    const what = state.installed === null ? "pgvector could not be added to this database" : "the vector tables could not be made"
    return { kept: false, reason: `${what}: ${error instanceof Error ? error.message : String(error)}` }
  }
}

/**
 * Why this role cannot add the extension, when that is known without trying: pgvector is not on
 * the server, or it is and only a superuser may add it (pgvector is not a trusted extension).
 * Looked at first, so a role that may not add it never waits on the write lock to be refused.
 */
const mayNotAdd = (db: SyncPg): string | undefined => {
  const found = db.one<{ available: string | null; trusted: boolean | null; superuser: boolean; create: boolean; role: string }>(
    `SELECT (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS available,
            (SELECT bool_or(trusted) FROM pg_available_extension_versions WHERE name = 'vector') AS trusted,
            (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
            has_database_privilege(current_database(), 'CREATE') AS "create", current_user AS role`
  )!
  if (found.available === null) return "pgvector is not installed on this server"
  if (found.superuser || (found.trusted === true && found.create)) return undefined
  return (
    `pgvector ${found.available} is on this server but not in this database, and the role ${found.role} may not add it: ` +
    "a superuser can, once, with CREATE EXTENSION vector"
  )
}

/** The "vectors" check `doctor` shows. */
export const vectorCheckDetail = (support: VectorSupport, models: ReadonlyArray<{ model: string; vectors: number }>): string => {
  if (!support.kept) return `${support.reason}: searches here are keyword searches (BM25 over the same words as SQLite)`
  const held = models.map((m) => `${m.vectors} of ${m.model}`).join(", ")
  return `pgvector ${support.version} keeps the embedder's vectors here: ${held === "" ? "none yet (a hybrid search files them)" : held}`
}
