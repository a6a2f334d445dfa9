/**
 * A bulk import's WAL checkpoints run on a thread of their own (LedgerStore.withCheckpointThread):
 * the importing connection's automatic checkpoints are off meanwhile and back on after, and by
 * the time the import returns, its memories are in the database file itself, not only in the WAL.
 */
import { copyFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { Either } from "effect"
import { expect, it } from "vitest"
import { makeIdFactory } from "../../src/domain/ids.js"
import { importJsonl } from "../../src/store/sqlite/transfer/import-memories.js"
import { CheckpointThread } from "../../src/store/sqlite/checkpoint-thread.js"
import { openTempStore } from "../support/temp-store.js"
import { tempDir } from "../support/cli.js"

const ACTOR = { origin: "import:file.jsonl", agent: "test" }
const lines = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ content: `Checkpointed memory number ${from + i} about the build`, project: null })).join("\n")

/** Memories in the database file alone: a copy of it without its WAL holds only checkpointed pages. */
const memoriesInMainFile = (path: string): number => {
  const copy = join(tempDir(), "main-file-only.db")
  copyFileSync(path, copy)
  const db = new Database(copy, { readonly: true })
  try {
    return (db.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n
  } finally {
    db.close()
  }
}

it("leaves a bulk import's memories checkpointed into the database file, and automatic checkpoints as they were", () => {
  const store = openTempStore()
  const interval = store.db.pragma("wal_autocheckpoint", { simple: true })
  const report = importJsonl(store, lines(3_000), ACTOR, Date.now(), () => makeIdFactory(), undefined, { batchSize: 1_000 })
  expect(Either.getOrThrow(report).imported).toBe(3_000)
  // The store is still open: nothing but the checkpoint thread has copied the WAL back.
  expect(memoriesInMainFile(store.db.name)).toBe(3_000)
  expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(interval)
})

it("turns automatic checkpoints back on after a bulk import that failed", () => {
  const store = openTempStore()
  const interval = store.db.pragma("wal_autocheckpoint", { simple: true })
  const text = `${lines(1_500)}\n{"content": "", "project": null}`
  const report = importJsonl(store, text, ACTOR, Date.now(), () => makeIdFactory(), undefined, { batchSize: 1_000 })
  expect(Either.isLeft(report) && report.left._tag).toBe("ImportLineInvalid")
  expect(store.db.pragma("wal_autocheckpoint", { simple: true })).toBe(interval)
  // The first batch was committed and checkpointed; the second was rolled back.
  expect(memoriesInMainFile(store.db.name)).toBe(1_000)
})

it("stops a checkpoint thread that could not load SQLite: the thread still answers its close", () => {
  const store = openTempStore()
  const thread = CheckpointThread.start(store.db, join(tempDir(), "no-such-driver.js"))
  expect(thread).toBeDefined()
  thread!.request()
  // It answers its close without a connection, instead of leaving `stop` to give up on it.
  expect(thread!.stop()).toBe(true)
})
