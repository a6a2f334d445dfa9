/**
 * Everything a surface needs, over one store file. Adapters provide this layer and call the
 * services; none of them reaches SQLite by itself.
 */
import { Layer } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../config.js"
import { CommandsLive } from "./commands.js"
import { MaintenanceLive } from "./maintenance.js"
import { QueriesLive } from "./queries.js"
import { RetrievalLive } from "./retrieval.js"
import { StoreLive } from "./store.js"

export const AppLayer = (dbPath: string, config: LedgerConfig = DEFAULT_CONFIG) =>
  Layer.mergeAll(CommandsLive, QueriesLive, MaintenanceLive, RetrievalLive).pipe(Layer.provideMerge(StoreLive(dbPath, config)))
