/** The settings every connection to a store gets: WAL, a patient lock, a memory map for reads. */
import { Either } from "effect"
import { join } from "node:path"
import { expect, it } from "vitest"
import { BUSY_TIMEOUT_MS, MMAP_BYTES, openDatabase } from "../../src/store/sqlite/database.js"
import { tempDir } from "../support/cli.js"

it("opens a store in WAL mode with reads mapped into memory and a patient lock", () => {
  const db = Either.getOrThrow(openDatabase(join(tempDir(), "m.db")))
  try {
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal")
    expect(db.pragma("busy_timeout", { simple: true })).toBe(BUSY_TIMEOUT_MS)
    // SQLite caps the map at its compile-time maximum; ours must not be cut below the setting.
    expect(db.pragma("mmap_size", { simple: true })).toBe(MMAP_BYTES)
  } finally {
    db.close()
  }
})
