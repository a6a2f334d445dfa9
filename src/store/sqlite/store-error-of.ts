/**
 * Which store error a value SQLite threw stands for: SQLite reports a damaged file, a held lock
 * or a full disk as a SqliteError from whatever statement meets it.
 */
import { LogBroken, StoreDamaged, StoreLocked, type StoreError } from "../errors.js"
import { BUSY_TIMEOUT_MS } from "./database.js"
import { diskFullOf } from "./disk-full.js"

/**
 * The store error a thrown value stands for: one of SQLite's errors about the file, or a store
 * error thrown as it is (LogBroken, from a write's check under the lock).
 */
export const storeErrorOf = (error: unknown, path: string): StoreError | undefined => {
  if (error instanceof LogBroken) return error
  const full = diskFullOf(error, path)
  if (full !== undefined) return full
  const code = sqliteCode(error)
  if (code === undefined) return undefined
  const detail = error instanceof Error ? error.message : String(error)
  if (isCode(code, "SQLITE_CORRUPT") || isCode(code, "SQLITE_NOTADB")) return new StoreDamaged({ path, detail })
  if (isCode(code, "SQLITE_BUSY") || isCode(code, "SQLITE_LOCKED")) return new StoreLocked({ path, waitedMs: BUSY_TIMEOUT_MS })
  return undefined
}

/** A primary code or one of its extended codes (SQLITE_CORRUPT_INDEX, SQLITE_BUSY_SNAPSHOT...). */
const isCode = (code: string, primary: string): boolean => code === primary || code.startsWith(`${primary}_`)

/** better-sqlite3's SqliteError carries SQLite's code as a string such as "SQLITE_CORRUPT". */
const sqliteCode = (error: unknown): string | undefined =>
  error instanceof Error && error.name === "SqliteError" && "code" in error && typeof error.code === "string" ? error.code : undefined
