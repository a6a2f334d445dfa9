/**
 * The `Store` service: one open LedgerStore per program, closed when its scope ends. Every
 * other service reaches SQLite through it.
 */
import { Context, Effect, Layer } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../config.js"
import type { StoreOpening } from "../store/sqlite/database.js"
import { LedgerStore } from "../store/sqlite/ledger-store.js"

export class Store extends Context.Tag("memledger/Store")<Store, LedgerStore>() {}

export { defaultDbPath } from "../store/default-path.js"

export const StoreLive = (path: string, config: LedgerConfig = DEFAULT_CONFIG, opening: StoreOpening = {}) =>
  Layer.scoped(
    Store,
    Effect.acquireRelease(
      Effect.suspend(() => LedgerStore.open(path, config, opening)),
      (store) => Effect.sync(() => store.close())
    )
  )
