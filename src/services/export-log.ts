/**
 * `mem export`: the whole log as JSONL. The target is checked before it is opened, since
 * opening truncates it: the store's own file (or its -wal/-shm), reached by whatever path, is
 * refused even with --force, as writing there would wipe the very log being exported.
 */
import { closeSync, openSync, realpathSync, statSync, writeSync } from "node:fs"
import { basename, dirname, join, resolve } from "node:path"
import { Either, Schema } from "effect"
import { exportRow } from "../events/export-line.js"
import { readRows } from "../events/log.js"
import type { Progress } from "../projections/rebuild.js"
import type { LedgerStore } from "../store/ledger-store.js"

/** The export file cannot be written: it is the store, a folder, or its folder is missing. */
export class ExportTargetInvalid extends Schema.TaggedError<ExportTargetInvalid>()("ExportTargetInvalid", {
  file: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot export to ${this.file}: ${this.reason}; nothing was written`
  }
}

/** `onProgress` hears every 10,000 events written, and the end. */
export const exportLog = (store: LedgerStore, file: string, onProgress?: Progress): Either.Either<{ events: number; file: string }, ExportTargetInvalid> => {
  const refused = refusal(file, store.path)
  if (refused !== undefined) return Either.left(new ExportTargetInvalid({ file, reason: refused }))
  return store.read((db) => {
    let fd: number
    try {
      fd = openSync(file, "w", 0o600)
    } catch (error) {
      return Either.left(new ExportTargetInvalid({ file, reason: error instanceof Error ? error.message : String(error) }))
    }
    let events = 0
    const total = onProgress === undefined ? 0 : (db.prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n
    try {
      let chunk: string[] = []
      for (const row of readRows(db)) {
        chunk.push(JSON.stringify(exportRow(row)))
        events++
        if (chunk.length === 10_000) {
          writeSync(fd, chunk.join("\n") + "\n")
          chunk = []
          onProgress?.(events, total)
        }
      }
      if (chunk.length > 0) writeSync(fd, chunk.join("\n") + "\n")
      onProgress?.(events, total)
    } finally {
      closeSync(fd)
    }
    return Either.right({ events, file })
  })
}

/** Why `file` must not be written, or undefined. */
const refusal = (file: string, storePath: string): string | undefined => {
  const target = statOrUndefined(file)
  if (target?.isDirectory()) return "it is a directory; give a file path"
  const parent = statOrUndefined(dirname(resolve(file)))
  if (parent === undefined) return `the folder ${dirname(file)} does not exist`
  if (!parent.isDirectory()) return `${dirname(file)} is not a directory`
  if (storePath === ":memory:") return undefined
  const storeFiles = [storePath, `${storePath}-wal`, `${storePath}-shm`]
  // The same file by inode catches symlinks and hard links alike; by real path, a -wal or -shm
  // that does not exist at this moment but would be the store's the next time it is opened.
  if (target !== undefined && storeFiles.some((f) => sameFile(statOrUndefined(f), target))) return "it is the store's own file, the log being exported"
  const real = realTarget(file)
  const realStore = realpathSync(storePath)
  if ([realStore, `${realStore}-wal`, `${realStore}-shm`].includes(real)) return "it is the store's own file, the log being exported"
  return undefined
}

/** Undefined for a path that does not exist, or cannot (ENOTDIR: it runs through a file). */
const statOrUndefined = (path: string) => {
  try {
    return statSync(path, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

const sameFile = (a: ReturnType<typeof statOrUndefined>, b: NonNullable<ReturnType<typeof statOrUndefined>>): boolean =>
  a !== undefined && a.dev === b.dev && a.ino === b.ino

/** The real path `file` names: its own when it exists, else its real folder's and its name. */
const realTarget = (file: string): string => {
  try {
    return realpathSync(file)
  } catch {
    return join(realpathSync(dirname(resolve(file))), basename(file))
  }
}
