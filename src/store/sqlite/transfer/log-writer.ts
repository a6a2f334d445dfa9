/** The SQLite store as the shared transfer code (store/transfer) writes a log into it. */
import type { LogWriter } from "../../transfer/log-writer.js"
import { appendRaw, eventCount } from "../event-log.js"
import type { LedgerStore } from "../ledger-store.js"
import { rebuildProjections } from "../projections/rebuild.js"
import { statement } from "../statements.js"

export const sqliteLogWriter = (store: LedgerStore): LogWriter => ({
  location: store.path,
  write: (f) =>
    store.write((tx) =>
      f({
        ...tx,
        appendLogOnly: (rows) => appendRaw(tx.db, rows),
        hasEvent: (id) => statement(tx.db, "SELECT 1 FROM events WHERE id = ?").get(id) !== undefined,
        eventCount: () => eventCount(tx.db),
        rebuild: () => rebuildProjections(tx.db, store.config)
      })
    )
})
