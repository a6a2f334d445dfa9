/**
 * A write lock held past the 15 s busy timeout ends `mem add` with words (locked by another
 * process, waited 15 s, try again) and exit 1, not SQLite's error and a stack trace.
 */
import { spawnSync } from "node:child_process"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { holdWriteLock, MEM_BIN, memAt, tempDir } from "../support/cli.js"

describe("a store locked for longer than the busy timeout", () => {
  it("is reported as locked by another process, after waiting 15 s", async () => {
    const db = join(tempDir(), "m.db")
    memAt(db)("add", "first", "--global")
    const holder = await holdWriteLock(db, 19_000, "ROLLBACK")
    try {
      const started = Date.now()
      const blocked = spawnSync(process.execPath, [MEM_BIN, "--db", db, "add", "second", "--global"], { encoding: "utf8" })
      expect(Date.now() - started).toBeGreaterThanOrEqual(15_000)
      expect(blocked.status).toBe(1)
      expect(blocked.stderr).toBe(`mem: the store at ${db} is locked by another process; waited 15 s for it; nothing was written, try again\n`)
    } finally {
      holder.kill()
    }
  }, 30_000)
})
