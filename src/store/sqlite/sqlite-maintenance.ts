/**
 * The maintenance port on SQLite. Rebuild and purge rewrite much of the file: on damaged pages
 * that could spread the damage or lose what is still readable, so SQLite's quick check comes
 * first, and neither starts on a log a verify found broken.
 */
import { randomBytes } from "node:crypto"
import { resolve } from "node:path"
import { Effect } from "effect"
import { makeImportIdFactory } from "../../domain/ids.js"
import { StoreDamaged } from "../errors.js"
import type { StoreMaintenanceApi } from "../store-maintenance.js"
import { copyStore, purgeCopyFile, verifyCopyFile } from "./backup-copies.js"
import { refuseIfBroken } from "./chain-break.js"
import { fileSize, quickCheck } from "./database.js"
import { diskFullOf } from "./disk-full.js"
import { databaseChecks, privacyCounts } from "./doctor.js"
import { eventCount } from "./event-log.js"
import type { LedgerStore } from "./ledger-store.js"
import { rebuildProjections } from "./projections/rebuild.js"
import { previewPurge, purgeForgotten } from "./purge.js"
import { exportLog } from "../transfer/export-file.js"
import { sqliteExportSource } from "./transfer/export-source.js"
import { importJsonl } from "./transfer/import-memories.js"
import { replayLog } from "../transfer/replay.js"
import { sqliteLogWriter } from "./transfer/log-writer.js"
import { storeErrorOf } from "./store-error-of.js"
import { ensureVectors, vectorsCurrent } from "./vector-freshness.js"
import { verifyStore } from "./verify.js"

export const sqliteMaintenance = (store: LedgerStore): StoreMaintenanceApi => {
  // Bulk import makes two ids per line; a 4 KiB pool of crypto bytes spares a randomBytes
  // call (a syscall, ~15 µs here) for each. Their random characters are exactly as random.
  const random = pooledRandomBytes()
  const importIds = (expected: number) => makeImportIdFactory(expected, random)
  return {
    location: store.path,
    bytes: Effect.sync(() => fileSize(store.path) + fileSize(`${store.path}-wal`)),
    isEmpty: Effect.sync(() => store.read((db) => eventCount(db) === 0)),
    importJsonl: (text, actor, nowMs, onProgress) => Effect.suspend(() => importJsonl(store, text, actor, nowMs, importIds, onProgress)),
    exportTo: (file, options) => Effect.suspend(() => exportLog(sqliteExportSource(store), file, options)),
    replay: (text, onProgress) => Effect.suspend(() => replayLog(sqliteLogWriter(store), text, onProgress)),
    rebuild: (onProgress) =>
      Effect.zipRight(
        undamaged(store),
        Effect.sync(() => store.writeOrThrow((tx) => rebuildProjections(tx.db, store.config, onProgress)))
      ),
    verify: (nowIso, onProgress) => Effect.sync(() => verifyStore(store.db, store.config, nowIso, onProgress)),
    purge: (options, onProgress) =>
      Effect.zipRight(
        undamaged(store),
        Effect.sync(() => {
          refuseIfBroken(store.db, store.path)
          return purgeForgotten(store.db, store.config, options, onProgress)
        })
      ),
    purgePreview: (options) => Effect.sync(() => store.read((db) => previewPurge(db, options))),
    backup: (toFile) =>
      Effect.tryPromise({ try: () => copyStore(store.db, toFile), catch: (error) => error }).pipe(
        // A full disk is the copy's, the one file written; anything else is a defect the edge names.
        Effect.catchAll((error) => {
          const full = diskFullOf(error, toFile)
          return full === undefined ? Effect.die(error) : Effect.fail(full)
        })
      ),
    verifyCopy: (file, nowIso) => Effect.suspend(() => verifyCopyFile(file, store.config, nowIso)),
    purgeCopy: (file) => Effect.sync(() => purgeCopyFile(store, file)),
    checks: Effect.sync(() => store.read((db) => databaseChecks(db, store.path))),
    privacyCounts: Effect.sync(() => store.read(privacyCounts)),
    keepsVectors: true,
    syncVectors: (embedder, onProgress) => ensureVectors(store, embedder, onProgress),
    vectorsCurrent: (model) => Effect.sync(() => vectorsCurrent(store, model)),
    errorOf: (thrown) => storeErrorOf(thrown, store.path === ":memory:" ? store.path : resolve(store.path))
  }
}

/** Fails with StoreDamaged, having written nothing, when SQLite's quick check finds damage. */
const undamaged = (store: LedgerStore): Effect.Effect<void, StoreDamaged> =>
  Effect.suspend(() => {
    const found = quickCheck(store.db)
    return found === "ok" ? Effect.void : Effect.fail(new StoreDamaged({ path: store.path, detail: `SQLite's quick check: ${found}` }))
  })

/** Random bytes drawn from a pool refilled 4 KiB at a time by the system CSPRNG. */
const pooledRandomBytes = (poolSize = 4096) => {
  let pool = randomBytes(poolSize)
  let used = 0
  return (n: number): Uint8Array => {
    if (used + n > pool.length) {
      pool = randomBytes(Math.max(poolSize, n))
      used = 0
    }
    used += n
    return pool.subarray(used - n, used)
  }
}
