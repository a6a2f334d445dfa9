/**
 * Whether a thrown error means the disk has no room left. SQLite says so as SQLITE_FULL when a
 * write cannot grow the file or its WAL; when it cannot even size its shared-memory file on
 * opening, it says only SQLITE_IOERR (SHMSIZE, WRITE...), so an I/O error is read as a full
 * disk when the file system has next to nothing left. Node says ENOSPC (or EDQUOT, a quota).
 */
import { statfsSync } from "node:fs"
import { dirname } from "node:path"
import { DiskFull } from "../../domain/errors.js"

/** Below this much room, an I/O error on the store is taken for a full disk. */
const NEARLY_FULL_BYTES = 1024 * 1024

export const diskFullOf = (error: unknown, path: string): DiskFull | undefined => {
  if (!(error instanceof Error) || !("code" in error) || typeof error.code !== "string") return undefined
  const code = error.code
  if (code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL") return new DiskFull({ path })
  if (error.name === "SqliteError" && (code === "SQLITE_IOERR" || code.startsWith("SQLITE_IOERR_")) && nearlyFull(path)) return new DiskFull({ path })
  return undefined
}

const nearlyFull = (path: string): boolean => {
  try {
    const fs = statfsSync(dirname(path))
    return fs.bavail * fs.bsize < NEARLY_FULL_BYTES
  } catch {
    return false
  }
}
