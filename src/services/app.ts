/**
 * Everything a surface needs, over one store file. Adapters provide this layer and call the
 * services; none of them reaches SQLite by itself. The embedder comes from the environment
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
import type { StoreOpening } from "../store/database.js"
import { StoreLive } from "./store.js"
import { TasksLive } from "./tasks.js"

export const AppLayer = (
  dbPath: string,
  config: LedgerConfig = DEFAULT_CONFIG,
  embedder: Layer.Layer<Embedder, EmbedderConfigInvalid> = EmbedderFromEnv(),
  opening: StoreOpening = {}
) =>
  Layer.mergeAll(CommandsLive, QueriesLive, MaintenanceLive, RetrievalLive, TasksLive, ConsoleLive).pipe(
    Layer.provideMerge(Layer.merge(StoreLive(dbPath, config, opening), embedder))
  )

/** The services plus `Operations` over them: what MCP, REST and the SDK's local mode run on. */
export const LocalOperationsLayer = (
  dbPath: string,
  config: LedgerConfig = DEFAULT_CONFIG,
  embedder: Layer.Layer<Embedder, EmbedderConfigInvalid> = EmbedderFromEnv(),
  opening: StoreOpening = {}
) => OperationsLocal.pipe(Layer.provideMerge(AppLayer(dbPath, config, embedder, opening)))
