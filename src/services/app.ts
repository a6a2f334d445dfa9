/**
 * Everything a surface needs, over one store: the composition root, the one place that picks
 * the store behind the ports (a `postgres://` URL is a PostgreSQL database, anything else a
 * SQLite file). Adapters provide this layer and call the services;
 * none of them reaches a store by itself. The embedder comes from the environment
 * (MEMLEDGER_EMBEDDER, see docs/embeddings.md) unless a layer for it is given.
 */
import { resolve } from "node:path"
import { Context, Effect, Either, Layer } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../config.js"
import { EmbedderFromEnv, type Embedder } from "../embeddings/embedder.js"
import type { EmbedderConfigInvalid } from "../embeddings/errors.js"
import { OperationsLocal } from "../api/operations-local.js"
import { Commands, makeCommands } from "./commands.js"
import { Console, makeConsole } from "./console.js"
import { Backups, makeBackups, restoreExport } from "./backups.js"
import { Maintenance, makeMaintenance } from "./maintenance.js"
import { Queries, makeQueries } from "./queries.js"
import { Retrieval, makeRetrieval } from "./retrieval.js"
import { SqliteStoreLive } from "../store/sqlite/sqlite-store.js"
import { isPostgresUrl, PostgresStoreLive } from "../store/postgres/postgres-store.js"
import { pgStoreErrorOf } from "../store/postgres/pg-maintenance.js"
import { storeErrorOf as sqliteStoreErrorOf } from "../store/sqlite/store-error-of.js"
import { unusablePath as unusableFile } from "../store/sqlite/database.js"
import type { EventLog } from "../store/event-log.js"
import type { LedgerReader } from "../store/ledger-reader.js"
import { StoreMaintenance } from "../store/store-maintenance.js"
import type { Tokens } from "../store/tokens.js"
import { People, makePeople } from "./people.js"
import type { Settings } from "../config.js"
import type { DatabaseUnusable, DiskFull, DomainError, StoreNotFound } from "../domain/errors.js"
import type { StoreError } from "../store/errors.js"
import { Tasks, makeTasks } from "./tasks.js"
import type { StoreOpening } from "../store/opening.js"
import { BackupNotAvailable, RestoreRefused, verifyFailure, type RestoreReport } from "../store/store-copies.js"
import { verifyExportCopy } from "../store/transfer/export-copies.js"
import { isStoreUrl, storeScheme } from "../store/store-url.js"
import { restoreCopy } from "../store/sqlite/restore-copy.js"

export const AppLayer = (
  dbPath: string,
  config: LedgerConfig = DEFAULT_CONFIG,
  embedder: Layer.Layer<Embedder, EmbedderConfigInvalid> = EmbedderFromEnv(),
  opening: StoreOpening = {}
) => AppLayerOn(StoreLive(dbPath, config, opening), embedder)

/** The services over a store's layer (benchmarks give one that also hands out the SQLite store). */
export const AppLayerOn = <ROut, E>(
  store: Layer.Layer<ROut | EventLog | LedgerReader | StoreMaintenance | Tokens | Settings, E>,
  embedder: Layer.Layer<Embedder, EmbedderConfigInvalid> = EmbedderFromEnv()
) => ServicesLive.pipe(Layer.provideMerge(Layer.merge(store, embedder)))

/**
 * Every service over the store's ports, built in one layer: a layer each, merged, cost a start
 * (an agent hook's on every prompt) about a fifth of a bare node start in Effect's building of
 * layers alone. None holds a resource of its own; the store's layer opens and closes the store.
 */
const ServicesLive = Layer.effectContext(
  Effect.gen(function* () {
    const commands = yield* makeCommands
    const queries = yield* makeQueries
    const maintenance = yield* makeMaintenance
    const backups = yield* makeBackups
    const retrieval = yield* makeRetrieval
    const tasks = yield* makeTasks
    const consoleReads = yield* makeConsole
    const people = yield* makePeople
    return Context.make(Commands, commands).pipe(
      Context.add(Queries, queries),
      Context.add(Maintenance, maintenance),
      Context.add(Backups, backups),
      Context.add(Retrieval, retrieval),
      Context.add(Tasks, tasks),
      Context.add(Console, consoleReads),
      Context.add(People, people)
    )
  })
)

/** The ports over the store `location` names. */
export const StoreLive = (
  location: string,
  config: LedgerConfig = DEFAULT_CONFIG,
  opening: StoreOpening = {}
): Layer.Layer<EventLog | LedgerReader | StoreMaintenance | Tokens | Settings, DatabaseUnusable | StoreNotFound | DiskFull> =>
  isPostgresUrl(location) ? PostgresStoreLive(location, config, opening) : SqliteStoreLive(location, config, opening)

/** A store as commands name it: a URL as given, a file by its absolute path. */
export const storeLocation = (location: string): string => (isPostgresUrl(location) ? location : resolve(location))

/** The services plus `Operations` over them: what MCP, REST and the SDK's local mode run on. */
export const LocalOperationsLayer = (
  dbPath: string,
  config: LedgerConfig = DEFAULT_CONFIG,
  embedder: Layer.Layer<Embedder, EmbedderConfigInvalid> = EmbedderFromEnv(),
  opening: StoreOpening = {}
) => OperationsLocal.pipe(Layer.provideMerge(AppLayer(dbPath, config, embedder, opening)))

export { defaultDbPath } from "../store/default-path.js"
/** Which store error a value the store threw stands for, for an edge outside the layer (the CLI's last resort). */
export const storeErrorOf = (error: unknown, location: string): StoreError | undefined =>
  isPostgresUrl(location) ? pgStoreErrorOf(error, location) : sqliteStoreErrorOf(error, location)

/** Why a store location cannot be used, or undefined (a URL is tried when opened). */
export const unusablePath = (location: string): string | undefined => (isPostgresUrl(location) ? undefined : unusableFile(location))

export { isPostgresUrl }

/**
 * Why `mem backup` does not back this store up, if it does not: a file is copied, a PostgreSQL
 * database's log written as an export; a store named by any other URL is neither.
 */
export const backupRefusal = (store: string): BackupNotAvailable | undefined =>
  !isStoreUrl(store) || isPostgresUrl(store)
    ? undefined
    : new BackupNotAvailable({
        store: `a ${storeScheme(store)}:// store`,
        instead: "write its log with 'mem export FILE', which 'mem replay FILE' takes into an empty store"
      })

/**
 * Puts a verified backup copy in place of the store. A file's copy replaces the file, which no
 * process may have open (restore-copy.ts); a database's copy, an export, is replayed into it,
 * and only into an empty one (backups.ts `restoreExport`).
 */
export const restoreStore = (
  store: string,
  file: string,
  now: Date
): Effect.Effect<RestoreReport, RestoreRefused | BackupNotAvailable | DomainError | DatabaseUnusable | StoreNotFound | DiskFull> => {
  const refused = backupRefusal(store)
  if (refused !== undefined) return Effect.fail(refused)
  if (!isPostgresUrl(store)) return restoreCopy(store, file, DEFAULT_CONFIG, now)
  // Checked before the database is opened: a copy that does not verify leaves a new, empty
  // database as it was, without even memledger's tables.
  const verified = verifyExportCopy(file)
  if (Either.isLeft(verified)) return Effect.fail(new RestoreRefused({ file, reason: verified.left.reason }))
  if (!verified.right.ok) return Effect.fail(new RestoreRefused({ file, reason: `it does not verify: ${verifyFailure(verified.right)}` }))
  return Effect.flatMap(StoreMaintenance, (maintenance) => restoreExport(maintenance, file)).pipe(
    Effect.provide(StoreLive(store, DEFAULT_CONFIG, { create: true }))
  )
}
