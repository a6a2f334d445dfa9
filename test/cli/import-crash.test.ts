/**
 * A `mem import` killed with SIGKILL while its writer thread is writing: the store opens,
 * verifies (hash chain, and projections against a rebuild), and holds whole batches of the file
 * and nothing else. A real process, killed as soon as a read-only look at its store sees the
 * first batch committed (the second is then being written), and in another run as soon as it
 * sees more than the first batch (a batch committed in parts would be seen, and killed, half in).
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { BULK_BATCH, WRITER_THREAD_MIN_LINES } from "../../src/store/sqlite/transfer/import-memories.js"
import { verifyStore } from "../../src/store/sqlite/verify.js"
import { memStarted } from "../support/cli-async.js"
import { tempDir } from "../support/cli.js"
import { openStoreAt } from "../support/temp-store.js"
import { until } from "../support/waiting.js"

const LINES = 2 * BULK_BATCH + 5_000

/** The events committed to the store at `db`, as a reader sees them: 0 while it does not exist yet. */
const committedEvents = (db: string): number => {
  try {
    const reader = new Database(db, { readonly: true, fileMustExist: true })
    try {
      return (reader.prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n
    } finally {
      reader.close()
    }
  } catch {
    return 0
  }
}

/** Runs `mem import` into `db` and kills it with SIGKILL once it has committed at least `events` events. */
const importKilledAfter = async (db: string, file: string, events: number): Promise<void> => {
  const run = memStarted(["--db", db, "import", file, "--json"])
  await until(() => {
    if (committedEvents(db) >= events) return true
    if (run.ended()) throw new Error(`mem import ended before it had committed ${events} events`)
    return false
  }, `${events} events committed to ${db}`)
  // It may have finished the rest between that look and this kill: whole batches all the same.
  if (!run.ended()) process.kill(run.pid, "SIGKILL")
  await run.result
}

/** The memories of the store at `db`, after checking that its log holds exactly their events. */
const memoryCount = (db: string): number => {
  const store = openStoreAt(db)
  try {
    const count = (table: string) => (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
    // Every line is a new memory, added by one event: a batch is in the store whole or not at all.
    expect(count("events"), db).toBe(count("memories"))
    expect(verifyStore(store.db, DEFAULT_CONFIG, new Date().toISOString()).ok, db).toBe(true)
    return count("memories")
  } finally {
    store.close()
  }
}

test("an import killed while its batches are written leaves whole batches and a sound store", async () => {
  expect(LINES).toBeGreaterThan(WRITER_THREAD_MIN_LINES)
  const dir = tempDir()
  const file = join(dir, "m.jsonl")
  writeFileSync(file, Array.from({ length: LINES }, (_, i) => JSON.stringify({ content: `Memory ${i} about the deploy pipeline`, project: null })).join("\n"))

  const first = join(dir, "first.db")
  await importKilledAfter(first, file, BULK_BATCH)
  expect([BULK_BATCH, 2 * BULK_BATCH]).toContain(memoryCount(first))

  const past = join(dir, "past-first.db")
  await importKilledAfter(past, file, BULK_BATCH + 1)
  expect([2 * BULK_BATCH, LINES]).toContain(memoryCount(past))
}, 180_000)
