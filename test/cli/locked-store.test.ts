/**
 * A write lock held past the 15 s busy timeout ends `mem add` with words (locked by another
 * process, waited 15 s, try again) and exit 1, not SQLite's error and a stack trace. The other
 * process holds the lock until the test releases it, after `mem add` has ended.
 */
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { describe, expect, it } from "vitest"
import { holdWriteLock, memAt, tempDir } from "../support/cli.js"

describe("a store locked for longer than the busy timeout", () => {
  it("is reported as locked by another process, after waiting 15 s", async () => {
    const db = join(tempDir(), "m.db")
    memAt(db)("add", "first", "--global")
    const holder = await holdWriteLock(db, "ROLLBACK")
    try {
      const started = performance.now()
      const blocked = memAt(db)("add", "second", "--global")
      expect(performance.now() - started).toBeGreaterThanOrEqual(15_000)
      expect(blocked.code).toBe(1)
      expect(blocked.stderr).toBe(`mem: the store at ${db} is locked by another process; waited 15 s for it; nothing was written, try again\n`)
    } finally {
      await holder.release()
    }
  })
})
