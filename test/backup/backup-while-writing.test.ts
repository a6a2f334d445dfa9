/**
 * A backup taken while four processes write is a consistent copy: it verifies, its log is the
 * first N events of the log the writers went on to write (the same ids and hashes, so the same
 * chain), and restoring it gives the store exactly that log, with the store as it was moved aside.
 */
import { join } from "node:path"
import Database from "better-sqlite3"
import { expect, test } from "vitest"
import { createStore, mem } from "../support/cli.js"
import { memAsync } from "../support/cli-async.js"
import { startWorker, workersInTempDir } from "../support/processes.js"

const WRITERS = 4

const tempDir = workersInTempDir()

/** The log's rows as the chain names them; read by a connection of the test's own. */
const logOf = (file: string): Array<{ seq: number; id: string; hash: string }> => {
  const db = new Database(file)
  try {
    return db.prepare("SELECT seq, id, hash FROM events ORDER BY seq").all() as Array<{ seq: number; id: string; hash: string }>
  } finally {
    db.close()
  }
}

const waitFor = async (done: () => boolean, what: string): Promise<void> => {
  for (const started = Date.now(); !done(); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() - started > 60_000) throw new Error(`timed out waiting for ${what}`)
  }
}

test(`a backup taken while ${WRITERS} processes write verifies, holds the beginning of their log, and restores`, async () => {
  const db = createStore(join(tempDir(), "busy.db"))
  const writers = Array.from({ length: WRITERS }, (_, w) => startWorker("sdk-writer.mjs", [db, String(w)]))
  await Promise.all(writers.map((w) => w.waitForLine((l) => l === "ready")))
  for (const w of writers) w.child.stdin!.write("go\n")
  await Promise.all(writers.map((w) => w.waitForLine((l) => l === "writing")))

  const before = logOf(db).length
  const backup = await memAsync(["--db", db, "backup", join(tempDir(), "copies"), "--json"])
  expect(backup.code, backup.stderr).toBe(0)
  const { file, events } = backup.json() as { file: string; events: number }
  // The writers go on past the copy before they are stopped.
  await waitFor(() => logOf(db).length > events + WRITERS, "writes after the backup")
  for (const w of writers) w.child.kill("SIGKILL")
  await Promise.all(writers.map((w) => w.exited))

  const log = logOf(db)
  const copied = logOf(file)
  expect(copied).toHaveLength(events)
  // Taken while they wrote: after the events counted before it, before those written after it.
  expect(events).toBeGreaterThan(before)
  expect(log.length).toBeGreaterThan(events)
  expect(copied).toEqual(log.slice(0, events))
  expect(new Set(log.slice(0, events).map((e) => e.id)).size).toBe(events)
  expect(mem(["--db", file, "verify", "--json"]).json()).toMatchObject({ ok: true, events })

  const restored = mem(["--db", db, "backup", "restore", file, "--json"])
  expect(restored.code, restored.stderr).toBe(0)
  const { movedAside } = restored.json() as { movedAside: string }
  expect(restored.json()).toMatchObject({ events, store: db })
  expect(logOf(db)).toEqual(copied)
  expect(logOf(movedAside)).toEqual(log)
  expect(mem(["--db", db, "verify", "--json"]).json()).toMatchObject({ ok: true, events })
}, 180_000)
