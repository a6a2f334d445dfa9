/**
 * Real SQLite files in fresh temp folders. `openTempStore()` for one test (removed when the
 * test ends); `withTempStore(f)` for a property run, removed as soon as `f` returns.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Either } from "effect"
import { onTestFinished } from "vitest"
import { DEFAULT_CONFIG, type LedgerConfig } from "../../src/config.js"
import { LedgerStore } from "../../src/store/sqlite/ledger-store.js"

export const makeTempDir = (): string => mkdtempSync(join(tmpdir(), "memledger-test-"))

export const removeDir = (dir: string): void => rmSync(dir, { recursive: true, force: true })

export const openStoreAt = (path: string, config: LedgerConfig = DEFAULT_CONFIG): LedgerStore => {
  const opened = LedgerStore.open(path, config)
  if (Either.isLeft(opened)) throw new Error(`cannot open ${path}: ${opened.left.message}`)
  return opened.right
}

/** A store on a new file, closed and deleted when the current test finishes. */
export const openTempStore = (config: LedgerConfig = DEFAULT_CONFIG): LedgerStore => {
  const dir = makeTempDir()
  const store = openStoreAt(join(dir, "ledger.db"), config)
  onTestFinished(() => {
    store.close()
    removeDir(dir)
  })
  return store
}

/** Runs `f` with stores on new files (as many as it asks for); all are closed and deleted after. */
export const withTempStores = <A>(f: (open: () => LedgerStore) => A, config: LedgerConfig = DEFAULT_CONFIG): A => {
  const dir = makeTempDir()
  const stores: LedgerStore[] = []
  try {
    return f(() => {
      const store = openStoreAt(join(dir, `ledger-${stores.length}.db`), config)
      // A property run never outlives its process, so it skips fsync: hundreds of short-lived
      // files then cost CPU, not disk waits. Durability has its own test (crash-recovery).
      store.db.pragma("synchronous = OFF")
      stores.push(store)
      return store
    })
  } finally {
    for (const s of stores) s.close()
    removeDir(dir)
  }
}
