/**
 * Backup copies of a store, as the maintenance port writes, checks and purges them (SQLite: a
 * copy of the file), and what can go wrong with them, in the words a person acts on.
 */
import { Schema } from "effect"
import type { VerifyReport } from "./store-maintenance.js"

/** A store `mem backup` neither copies as a file nor writes as an export: its backups are written another way. */
export class BackupNotAvailable extends Schema.TaggedError<BackupNotAvailable>()("BackupNotAvailable", {
  store: Schema.String,
  instead: Schema.String
}) {
  override get message() {
    return `mem backup copies a SQLite store file or exports a PostgreSQL database's log, and ${this.store} is neither: ${this.instead}`
  }
}

/** A file that does not open as a memledger store: not SQLite, another program's database, or damaged. */
export class CopyUnreadable extends Schema.TaggedError<CopyUnreadable>()("CopyUnreadable", {
  file: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.file} does not read as a memledger store: ${this.reason}`
  }
}

/** No copy was kept: it did not verify, or the folder cannot hold one. */
export class BackupFailed extends Schema.TaggedError<BackupFailed>()("BackupFailed", {
  folder: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `no backup was kept in ${this.folder}: ${this.reason}`
  }
}

/** A restore that changed nothing: the copy does not verify, or the store cannot be moved aside now. */
export class RestoreRefused extends Schema.TaggedError<RestoreRefused>()("RestoreRefused", {
  file: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `refusing to restore ${this.file}: ${this.reason}; nothing was changed`
  }
}

/** One copy as a purge left it: how many payloads it erased there, or why it could not. */
export interface CopyPurge {
  readonly file: string
  /** Absent from a preview, which erases nothing. */
  readonly erasedEvents?: number
  /** Why the copy was left as it was, and so may still hold forgotten text. */
  readonly problem?: string
}

export interface BackupReport {
  /** The copy written, verified. */
  readonly file: string
  readonly events: number
  /** The copies of this store in the folder after retention, newest first, this one included. */
  readonly kept: ReadonlyArray<string>
  /** The copies retention deleted. */
  readonly removed: ReadonlyArray<string>
}

export interface RestoreReport {
  readonly restored: string
  readonly store: string
  readonly events: number
  /** Where the store as it was before is now; absent when there was none. */
  readonly movedAside?: string
}

/** Why a verify report is not ok, in a few words: the first of SQLite's, the chain's and the projections' findings. */
export const verifyFailure = (report: VerifyReport): string => {
  if (report.integrity !== "ok") return `SQLite finds it damaged (${report.integrity})`
  if (!report.chain.ok) return `its hash chain is broken at event #${report.chain.brokenAt} (${report.chain.reason})`
  return `its projections differ from a rebuild of its log (${report.projections.differences.map((d) => d.projection).join(", ")})`
}
