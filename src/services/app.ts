/**
 * Everything a surface needs, over one store file: the composition root, the one place that
 * picks the store (SQLite) behind the ports. Adapters provide this layer and call the services;
 * none of them reaches a store by itself. The embedder comes from the environment
 * (MEMLEDGER_EMBEDDER, see docs/embeddings.md) unless a layer for it is given.
 */
import { Either, Layer } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../config.js"
import { EmbedderFromEnv, type Embedder } from "../embeddings/embedder.js"
import type { EmbedderConfigInvalid } from "../embeddings/errors.js"
import { OperationsLocal } from "../api/operations-local.js"
import { CommandsLive } from "./commands.js"
import { ConsoleLive } from "./console.js"
import { BackupsLive } from "./backups.js"
import { MaintenanceLive } from "./maintenance.js"
import { QueriesLive } from "./queries.js"
import { RetrievalLive } from "./retrieval.js"
import { SqliteStoreLive } from "../store/sqlite/sqlite-store.js"
import { TasksLive } from "./tasks.js"
import type { StoreOpening } from "../store/opening.js"
import { BackupNotAvailable, type RestoreRefused, type RestoreReport } from "../store/store-copies.js"
import { isStoreUrl, storeScheme } from "../store/store-url.js"
import { restoreCopy } from "../store/sqlite/restore-copy.js"

export const AppLayer = (
  dbPath: string,
  config: LedgerConfig = DEFAULT_CONFIG,
  embedder: Layer.Layer<Embedder, EmbedderConfigInvalid> = EmbedderFromEnv(),
  opening: StoreOpening = {}
) =>
  Layer.mergeAll(CommandsLive, QueriesLive, MaintenanceLive, BackupsLive, RetrievalLive, TasksLive, ConsoleLive).pipe(
    Layer.provideMerge(Layer.merge(SqliteStoreLive(dbPath, config, opening), embedder))
  )

/** The services plus `Operations` over them: what MCP, REST and the SDK's local mode run on. */
export const LocalOperationsLayer = (
  dbPath: string,
  config: LedgerConfig = DEFAULT_CONFIG,
  embedder: Layer.Layer<Embedder, EmbedderConfigInvalid> = EmbedderFromEnv(),
  opening: StoreOpening = {}
) => OperationsLocal.pipe(Layer.provideMerge(AppLayer(dbPath, config, embedder, opening)))

export { defaultDbPath } from "../store/default-path.js"
/** Which store error a value the store threw stands for, for an edge outside the layer (the CLI's last resort). */
export { storeErrorOf } from "../store/sqlite/store-error-of.js"
export { unusablePath } from "../store/sqlite/database.js"

/**
 * Why `mem backup` does not copy this store, if it does not: this root opens SQLite files, and
 * a store named by a URL (PostgreSQL, to come) is none. Its backups are exports, until its own
 * store writes them through the maintenance port's `backup`.
 */
export const backupRefusal = (store: string, restoring = false): BackupNotAvailable | undefined => {
  if (!isStoreUrl(store)) return undefined
  const instead = restoring
    ? "its backups are exports ('mem export FILE'), which 'mem replay FILE' takes into an empty store"
    : "write its backup with 'mem export FILE' for now (mem backup will write its log as an export later); for the database itself, pg_dump and point-in-time recovery are the tools"
  return new BackupNotAvailable({ store: `a ${storeScheme(store)}:// store`, instead })
}

/** Puts a verified backup copy in place of the store file, which no process may have open (restore-copy.ts). */
export const restoreStore = (store: string, file: string, now: Date): Either.Either<RestoreReport, RestoreRefused | BackupNotAvailable> => {
  const refused = backupRefusal(store, true)
  return refused === undefined ? restoreCopy(store, file, DEFAULT_CONFIG, now) : Either.left(refused)
}
