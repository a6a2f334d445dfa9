/**
 * `storeErrorOf` turns SQLite's errors about the file into the store's own: every extended
 * code of a damaged file or a held lock, from a real SqliteError, and nothing else.
 */
import Database from "better-sqlite3"
import { describe, expect, it } from "vitest"
import { StoreDamaged, StoreLocked } from "../../src/store/errors.js"
import { storeErrorOf } from "../../src/store/sqlite/store-error-of.js"

const sqliteError = (code: string) => new Database.SqliteError(`message for ${code}`, code)

describe("storeErrorOf", () => {
  it.each(["SQLITE_CORRUPT", "SQLITE_CORRUPT_INDEX", "SQLITE_CORRUPT_VTAB", "SQLITE_NOTADB"])("%s is a damaged store", (code) => {
    const error = storeErrorOf(sqliteError(code), "/x/m.db")
    expect(error).toBeInstanceOf(StoreDamaged)
    expect(error!.message).toBe(
      `the store at /x/m.db is damaged (message for ${code}); it was left untouched; 'mem verify' tells more (restore it from a backup, or replay an export into a new file)`
    )
  })

  it.each(["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_LOCKED", "SQLITE_LOCKED_SHAREDCACHE"])("%s is a locked store", (code) => {
    const error = storeErrorOf(sqliteError(code), "/x/m.db")
    expect(error).toBeInstanceOf(StoreLocked)
    expect(error!.message).toBe("the store at /x/m.db is locked by another process; waited 15 s for it; nothing was written, try again")
  })

  it.each(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_ERROR", "SQLITE_CORRUPTED_LOOKALIKE"])("%s is not the file's fault", (code) => {
    expect(storeErrorOf(sqliteError(code), "/x/m.db")).toBeUndefined()
  })

  it("ignores anything that is not a SqliteError", () => {
    expect(storeErrorOf(Object.assign(new Error("x"), { code: "SQLITE_BUSY" }), "/x/m.db")).toBeUndefined()
    expect(storeErrorOf("SQLITE_CORRUPT", "/x/m.db")).toBeUndefined()
  })
})
