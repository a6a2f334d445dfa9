/**
 * Everything a surface needs, over one store file: the composition root, the one place that
 * picks the store (SQLite) behind the ports. Adapters provide this layer and call the services;
 * none of them reaches a store by itself. The embedder comes from the environment
 * (MEMLEDGER_EMBEDDER, see docs/embeddings.md) unless a layer for it is given.
 */
import { Layer } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../config.js"
import { EmbedderFromEnv, type Embedder } from "../embeddings/embedder.js"
import type { EmbedderConfigInvalid } from "../embeddings/errors.js"
import { OperationsLocal } from "../api/operations-local.js"
import { CommandsLive } from "./commands.js"
import { ConsoleLive } from "./console.js"
import { MaintenanceLive } from "./maintenance.js"
import { QueriesLive } from "./queries.js"
import { RetrievalLive } from "./retrieval.js"
import { SqliteStoreLive } from "../store/sqlite/sqlite-store.js"
import { TasksLive } from "./tasks.js"
import type { StoreOpening } from "../store/opening.js"

export const AppLayer = (
  dbPath: string,
  config: LedgerConfig = DEFAULT_CONFIG,
  embedder: Layer.Layer<Embedder, EmbedderConfigInvalid> = EmbedderFromEnv(),
  opening: StoreOpening = {}
) =>
  Layer.mergeAll(CommandsLive, QueriesLive, MaintenanceLive, RetrievalLive, TasksLive, ConsoleLive).pipe(
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
