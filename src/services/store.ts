/**
 * The `Store` service: one open LedgerStore per program, closed when its scope ends. Every
 * other service reaches SQLite through it.
 */
import { homedir } from "node:os"
import { join } from "node:path"
import { Context, Effect, Layer } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../config.js"
import type { StoreOpening } from "../store/database.js"
import { LedgerStore } from "../store/ledger-store.js"

export class Store extends Context.Tag("memledger/Store")<Store, LedgerStore>() {}

/** `--db`, else MEMLEDGER_DB, else ~/.memledger/memledger.db. */
export const defaultDbPath = (env: NodeJS.ProcessEnv = process.env): string =>
  env.MEMLEDGER_DB && env.MEMLEDGER_DB.length > 0 ? env.MEMLEDGER_DB : join(homedir(), ".memledger", "memledger.db")

export const StoreLive = (path: string, config: LedgerConfig = DEFAULT_CONFIG, opening: StoreOpening = {}) =>
  Layer.scoped(
    Store,
    Effect.acquireRelease(
      Effect.suspend(() => LedgerStore.open(path, config, opening)),
      (store) => Effect.sync(() => store.close())
    )
  )
