/**
 * `mem export`: the whole log as JSONL, from any store. The target is checked before anything is
 * written: the store's own files (a SQLite file's -wal and -shm too), reached by whatever path, are refused even with --force,
 * as writing there would wipe the very log being exported.
 *
 * Every row is checked as it is read (log-chain.ts), so an export holds only events that
 * verify: a row that does not (a payload byte damaged on disk, an edited row) stops the export,
 * naming the event, or with `verified` ends it there, with the events before it, which is what
 * a replay into a new store recovers. The lines go to a file beside the target, renamed onto it
 * once all are written: a failed export leaves no file, and leaves an old one at the path as it
 * was.
 */
import { closeSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from "node:fs"
import { basename, dirname, join, resolve } from "node:path"
import { randomBytes } from "node:crypto"
import { Either, Schema } from "effect"
import type { DiskFull } from "../../domain/errors.js"
import { exportRow } from "../../events/export-line.js"
import { LogChain } from "../../events/log-chain.js"
import type { EventRow } from "../../events/log.js"
import { EventDoesNotVerify, ExportTargetInvalid, type ExportOptions, type ExportReport } from "../store-maintenance.js"

/** What an export reads from its store: the log's rows in order, on one snapshot, and how many there are. */
export type ReadLog = <A>(f: (rows: Iterable<EventRow>, total: () => number) => A) => A

/** Where the store keeps its log on disk, which an export must never overwrite (none for a server's store). */
export interface ExportSource {
  readonly files: ReadonlyArray<string>
  readonly read: ReadLog
  /** The store's error for a full disk, if `error` is one. */
  readonly diskFull: (error: unknown, file: string) => DiskFull | undefined
}

export const exportLog = (
  source: ExportSource,
  file: string,
  { verified = false, onProgress }: ExportOptions = {}
): Either.Either<ExportReport, ExportTargetInvalid | EventDoesNotVerify | DiskFull> => {
  const refused = refusal(file, source.files)
  if (refused !== undefined) return Either.left(new ExportTargetInvalid({ file, reason: refused }))
  // Beside the file it replaces (through a symlink, beside what it points to), so the rename is one step.
  const target = realTarget(file)
  const partial = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.partial`)
  return source.read((rows, count) => {
    let fd: number
    try {
      fd = openSync(partial, "wx", 0o600)
    } catch (error) {
      return Either.left(new ExportTargetInvalid({ file, reason: error instanceof Error ? error.message : String(error) }))
    }
    const total = onProgress === undefined ? 0 : count()
    let kept = false
    try {
      const chain = new LogChain()
      let stopped: { seq: number; reason: string } | undefined
      let chunk: string[] = []
      for (const row of rows) {
        const broken = chain.check(row, { decode: false })
        if (broken !== undefined) {
          stopped = { seq: row.seq, reason: broken }
          break
        }
        chunk.push(JSON.stringify(exportRow(row)))
        if (chunk.length === 10_000) {
          writeSync(fd, chunk.join("\n") + "\n")
          chunk = []
          onProgress?.(chain.sound, total)
        }
      }
      if (stopped !== undefined && !verified) return Either.left(new EventDoesNotVerify(stopped))
      if (chunk.length > 0) writeSync(fd, chunk.join("\n") + "\n")
      onProgress?.(chain.sound, total)
      closeSync(fd)
      fd = -1
      renameSync(partial, target)
      kept = true
      const report: ExportReport = { events: chain.sound, file }
      return Either.right(stopped === undefined ? report : { ...report, stoppedAt: stopped.seq, reason: stopped.reason })
    } catch (error) {
      // The partial file goes (below): a full disk leaves nothing behind, not an empty export.
      const full = source.diskFull(error, file)
      if (full === undefined) throw error
      return Either.left(full)
    } finally {
      if (fd >= 0) closeSync(fd)
      if (!kept) rmSync(partial, { force: true })
    }
  })
}

/** Why `file` must not be written, or undefined. */
const refusal = (file: string, storeFiles: ReadonlyArray<string>): string | undefined => {
  const target = statOrUndefined(file)
  if (target?.isDirectory()) return "it is a directory; give a file path"
  const parent = statOrUndefined(dirname(resolve(file)))
  if (parent === undefined) return `the folder ${dirname(file)} does not exist`
  if (!parent.isDirectory()) return `${dirname(file)} is not a directory`
  if (storeFiles.length === 0) return undefined
  // The same file by inode catches symlinks and hard links alike; by real path, a -wal or -shm
  // that does not exist at this moment but would be the store's the next time it is opened.
  if (target !== undefined && storeFiles.some((f) => sameFile(statOrUndefined(f), target))) return "it is the store's own file, the log being exported"
  const real = realTarget(file)
  if (storeFiles.some((f) => realOrSelf(f) === real)) return "it is the store's own file, the log being exported"
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

/** A store file's real path; a -wal or -shm that does not exist now by its real folder's path. */
const realOrSelf = (file: string): string => {
  try {
    return realTarget(file)
  } catch {
    return resolve(file)
  }
}
