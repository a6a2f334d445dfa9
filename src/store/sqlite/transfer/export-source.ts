/** The SQLite store as an export reads it: its file (with -wal and -shm) and its rows on one snapshot. */
import type { ExportSource } from "../../transfer/export-file.js"
import { diskFullOf } from "../disk-full.js"
import { eventCount, readRows } from "../event-log.js"
import type { LedgerStore } from "../ledger-store.js"

export const sqliteExportSource = (store: LedgerStore): ExportSource => ({
  files: store.path === ":memory:" ? [] : [store.path, `${store.path}-wal`, `${store.path}-shm`],
  read: (f) => store.read((db) => f(readRows(db), () => eventCount(db))),
  diskFull: diskFullOf
})
