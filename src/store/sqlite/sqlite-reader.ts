/**
 * The reader port on SQLite: a unit of reads runs in one deferred transaction (one snapshot);
 * a read at a past moment replays the log up to it into a store in memory and reads there.
 */
import { Effect } from "effect"
import type { LedgerReaderApi } from "../ledger-reader.js"
import type { LedgerStore } from "./ledger-store.js"
import { sqliteReads } from "./sqlite-reads.js"
import { replayUntil } from "./time-travel.js"

export const sqliteReader = (store: LedgerStore): LedgerReaderApi => ({
  read: (f) => Effect.sync(() => store.read((db) => f(sqliteReads(db)))),
  readAt: (untilIso, f) =>
    Effect.sync(() => {
      const past = replayUntil(store, untilIso)
      try {
        return f(sqliteReads(past.db))
      } finally {
        past.close()
      }
    })
})
