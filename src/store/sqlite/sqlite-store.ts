/**
 * The SQLite store: one LedgerStore (one connection to one file) behind the ports, the event
 * log, the reader, the store's maintenance and people's tokens, closed when the layer's scope ends.
 */
import { Context, Effect, Layer } from "effect"
import { Settings, type LedgerConfig } from "../../config.js"
import { EventLog } from "../event-log.js"
import { LedgerReader } from "../ledger-reader.js"
import { StoreMaintenance } from "../store-maintenance.js"
import { Tokens } from "../tokens.js"
import { sqliteTokens } from "./tokens.js"
import { LedgerStore } from "./ledger-store.js"
import { sqliteEventLog } from "./sqlite-event-log.js"
import { sqliteMaintenance } from "./sqlite-maintenance.js"
import { sqliteReader } from "./sqlite-reader.js"
import type { StoreOpening } from "../opening.js"

/** The open store itself, for what works below the ports (the SQLite tests and benchmarks). */
export class SqliteStore extends Context.Tag("memledger/SqliteStore")<SqliteStore, LedgerStore>() {}

/** The ports over an open store; the store's owner closes it. */
export const sqlitePorts = (store: LedgerStore) =>
  // One layer, not one a port merged: Effect's building of each layer costs every start.
  Layer.succeedContext(
    Context.make(EventLog, sqliteEventLog(store)).pipe(
      Context.add(LedgerReader, sqliteReader(store)),
      Context.add(StoreMaintenance, sqliteMaintenance(store)),
      Context.add(Tokens, sqliteTokens(store)),
      Context.add(Settings, store.config),
      Context.add(SqliteStore, store)
    )
  )

/** Opens the file (creating it only when `opening` allows) and closes it with the scope. */
export const SqliteStoreLive = (path: string, config: LedgerConfig, opening: StoreOpening = {}) =>
  Layer.unwrapScoped(
    Effect.map(
      Effect.acquireRelease(
        Effect.suspend(() => LedgerStore.open(path, config, opening)),
        (store) => Effect.sync(() => store.close())
      ),
      sqlitePorts
    )
  )
