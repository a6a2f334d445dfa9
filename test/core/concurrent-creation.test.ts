/**
 * Many processes opening the same new store at once all succeed: none mistakes a store that
 * another process is creating for a file that is not a memledger store. Twelve processes walk
 * the same twenty fresh paths together, each opening every store a few times (whichever comes
 * first creates it) and appending one event to it; every open succeeds and every event is there.
 *
 * The race behind it is narrow: another process's creation committing between two reads of one
 * open. So a second test widens it: one process commits a store's creation (and its removal)
 * over and over on one file while others keep opening it; each open finds either no store yet
 * or a whole one, never the half a reader stitched from before and after a commit.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { expect, test } from "vitest"
import { chainProblem } from "../support/chain.js"
import { startWorker, workersInTempDir } from "../support/processes.js"

const PROCESSES = 12
const READERS = 4
const READER_OPENS = 1_000
const ROUNDS = 20
const OPENS_EACH = 5

const tempDir = workersInTempDir()

test(`${PROCESSES} processes opening each of ${ROUNDS} new stores at once all open it and append to it`, async () => {
  const args = (w: number) => [tempDir(), String(w), String(ROUNDS), String(OPENS_EACH)]
  const workers = Array.from({ length: PROCESSES }, (_, w) => startWorker("create-worker.mjs", args(w)))
  await Promise.all(workers.map((w) => w.waitForLine((l) => l === "ready")))
  for (const w of workers) w.child.stdin!.write("go\n")
  const reports = await Promise.all(
    workers.map(async (w) => {
      const { code, stderr } = await w.exited
      expect(code, stderr).toBe(0)
      return JSON.parse(await w.waitForLine((l) => l.startsWith("{"))) as { failures: { path: string; reason: string }[] }
    })
  )
  expect(reports.flatMap((r) => r.failures)).toEqual([])
  const everyWorker = Array.from({ length: PROCESSES }, (_, w) => `worker:${w}`).sort()
  for (let round = 0; round < ROUNDS; round++) {
    const path = join(tempDir(), `round-${round}`, "m.db")
    expect(existsSync(path)).toBe(true)
    const db = new Database(path, { readonly: true })
    try {
      const origins = (db.prepare("SELECT origin FROM events").all() as { origin: string }[]).map((r) => r.origin)
      expect(origins.sort()).toEqual(everyWorker)
      expect(chainProblem(db)).toBeUndefined()
    } finally {
      db.close()
    }
  }
}, 180_000)

test("an open that meets another process's creation of the store sees all of it or none of it", async () => {
  const path = join(tempDir(), "flapping.db")
  const flapper = startWorker("creation-flapper.mjs", [path])
  await flapper.waitForLine((l) => l === "ready")
  const readers = Array.from({ length: READERS }, () => startWorker("identity-reader.mjs", [path, String(READER_OPENS)]))
  await Promise.all(readers.map((r) => r.waitForLine((l) => l === "ready")))
  for (const r of readers) r.child.stdin!.write("go\n")
  const failures = await Promise.all(
    readers.map(async (r) => {
      const { code, stderr } = await r.exited
      expect(code, stderr).toBe(0)
      return (JSON.parse(await r.waitForLine((l) => l.startsWith("{"))) as { failures: string[] }).failures
    })
  )
  flapper.child.stdin!.write("stop\n")
  const { created } = JSON.parse(await flapper.waitForLine((l) => l.startsWith("{"))) as { created: number }
  // The readers really met creations: many were committed while they opened the file.
  expect(created).toBeGreaterThan(READERS)
  expect(failures.flat().slice(0, 3)).toEqual([])
}, 120_000)
