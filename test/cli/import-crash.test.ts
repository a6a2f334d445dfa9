/**
 * A `mem import` killed with SIGKILL while its writer thread is writing: the store opens,
 * verifies (hash chain, and projections against a rebuild), and holds whole batches of the file
 * and nothing else. A real process, killed at moments spread over its run.
 */
import { spawn } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { BULK_BATCH, WRITER_THREAD_MIN_LINES } from "../../src/services/import-memories.js"
import { verifyStore } from "../../src/store/verify.js"
import { openStoreAt } from "../support/temp-store.js"
import { MEM_BIN, tempDir } from "../support/cli.js"

const LINES = 2 * BULK_BATCH + 5_000
/** Kill moments, as fractions of how long a whole import took on this machine just before. */
const MOMENTS = [0.6, 0.8, 0.95]

/** Runs `mem` with `args`, killed after `ms` if it has not ended; resolves with its exit code (null when killed) and run time. */
const runKilledAfter = (args: ReadonlyArray<string>, ms: number): Promise<{ code: number | null; ms: number }> =>
  new Promise((resolve) => {
    const started = Date.now()
    const child = spawn(process.execPath, [MEM_BIN, ...args], { stdio: "ignore", env: { ...process.env, MEMLEDGER_DB: "" } })
    const timer = setTimeout(() => child.kill("SIGKILL"), ms)
    child.on("exit", (code) => {
      clearTimeout(timer)
      resolve({ code, ms: Date.now() - started })
    })
  })

/** The memories of the store at `db`, after checking that its log holds exactly their events. */
const memoryCount = (db: string): number => {
  const store = openStoreAt(db)
  try {
    const count = (table: string) => (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
    // Every line is a new memory, added by one event: a batch is in the store whole or not at all.
    expect(count("events"), db).toBe(count("memories"))
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
  const whole = await runKilledAfter(["--db", join(dir, "whole.db"), "import", file, "--json"], 60_000)
  expect(whole.code).toBe(0)
  expect(memoryCount(join(dir, "whole.db"))).toBe(LINES)
  const counts: number[] = []
  for (const [round, moment] of MOMENTS.entries()) {
    const db = join(dir, `m-${round}.db`)
    const delay = Math.round(moment * whole.ms)
    await runKilledAfter(["--db", db, "import", file, "--json"], delay)
    const memories = existsSync(db) ? memoryCount(db) : 0
    counts.push(memories)
    expect([0, BULK_BATCH, 2 * BULK_BATCH, LINES], `round ${round}, killed after ${delay} ms`).toContain(memories)
    if (!existsSync(db)) continue
    const store = openStoreAt(db)
    try {
      expect(verifyStore(store.db, DEFAULT_CONFIG, new Date().toISOString()).ok, `round ${round}, killed after ${delay} ms`).toBe(true)
    } finally {
      store.close()
    }
  }
  // Most kills fall between the first commit and the last, where the thread has a batch open.
  expect(counts.some((n) => n > 0 && n < LINES), `memories after each kill: ${counts.join(", ")}`).toBe(true)
}, 180_000)
