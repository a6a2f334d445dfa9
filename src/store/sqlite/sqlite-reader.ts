/**
 * The reader port on SQLite: a unit of reads runs in one deferred transaction (one snapshot);
 * a read at a past moment reads a store in memory holding the log up to then (time-travel.ts).
 */
import { Effect } from "effect"
import type { LedgerReaderApi } from "../ledger-reader.js"
import type { LedgerStore } from "./ledger-store.js"
import { sqliteReads } from "./sqlite-reads.js"
import { PastStores } from "./time-travel.js"

export const sqliteReader = (store: LedgerStore): LedgerReaderApi => {
  const past = new PastStores(store)
  store.whenClosed(() => past.close())
  return {
    read: (f) => Effect.sync(() => store.read((db) => f(sqliteReads(db)))),
    readAt: (untilIso, f) => Effect.sync(() => past.read(untilIso, (then) => f(sqliteReads(then.db))))
  }
}
