/**
 * The store's own work, as a port: moving the log in and out (import, export, replay), keeping
 * the store sound (rebuild, verify, purge, the checks `doctor` runs), its backup copies, the
 * vectors an embedder keeps beside the projections, and where the store is. Each store implements it; the
 * `Maintenance` service and the CLI call it. Long work reports progress through a callback.
 */
import { Context, type Effect, Schema } from "effect"
import type { Actor } from "../commands/actor.js"
import type { DiskFull, DomainError } from "../domain/errors.js"
import type { EmbedderApi } from "../embeddings/embedder.js"
import type { EmbedderUnavailable } from "../embeddings/errors.js"
import type { StoreDamaged, StoreError } from "./errors.js"
import type { BackupFailed, CopyPurge, CopyUnreadable } from "./store-copies.js"

export interface StoreMaintenanceApi {
  /** Where the store is, as `stats` and `doctor` name it (a file's path, ":memory:"). */
  readonly location: string
  /** The bytes the store takes on disk now. */
  readonly bytes: Effect.Effect<number>
  /** True while the log holds no event. */
  readonly isEmpty: Effect.Effect<boolean>
  readonly importJsonl: (text: string, actor: Actor, nowMs: number, onProgress?: Progress) => Effect.Effect<ImportReport, DomainError>
  /**
   * Refuses (even to overwrite) the store's own file, a folder, or a path whose folder is
   * missing; and a log with an event that does not verify, unless `verified` asks for the
   * events before it.
   */
  readonly exportTo: (file: string, options?: ExportOptions) => Effect.Effect<ExportReport, ExportTargetInvalid | EventDoesNotVerify | DiskFull>
  readonly replay: (text: string, onProgress?: Progress) => Effect.Effect<{ events: number }, DomainError>
  readonly rebuild: (onProgress?: Progress) => Effect.Effect<{ events: number }, StoreDamaged>
  readonly verify: (nowIso: string, onProgress?: Progress) => Effect.Effect<VerifyReport>
  readonly purge: (options: { readonly memories: boolean }, onProgress?: Progress) => Effect.Effect<PurgeReport, StoreDamaged>
  /** What purge would erase now, without erasing anything. */
  readonly purgePreview: (options: { readonly memories: boolean }) => Effect.Effect<{ readonly conversations: ReadonlyArray<string>; readonly memories: number }>
  /**
   * Writes a consistent copy of the store to `toFile` (new, owner-only) while other processes go
   * on writing: SQLite copies its file; a store with no file to copy (PostgreSQL) writes its log
   * as an export, on one snapshot. A copy that cannot be written is `BackupFailed`, saying why.
   */
  readonly backup: (toFile: string) => Effect.Effect<void, BackupFailed | DiskFull>
  /** What `verify` reports, of a copy `backup` wrote (or one to restore), as it would of the store (an export: its chain). */
  readonly verifyCopy: (file: string, nowIso: string) => Effect.Effect<VerifyReport, CopyUnreadable>
  /**
   * Erases from a copy of this store's log every payload the store has erased, so a purge reaches
   * its backups. A copy whose log is not a beginning of this one, or that does not read, is left
   * as it is, and `problem` says so: it may still hold forgotten text.
   */
  readonly purgeCopy: (file: string) => Effect.Effect<CopyPurge>
  /** The store's own checks for `doctor`: cheap ones only (the full comparison is verify). */
  readonly checks: Effect.Effect<ReadonlyArray<Check>>
  readonly privacyCounts: Effect.Effect<PrivacyCounts>
  /**
   * Whether the store keeps an embedder's vectors. One that does not (PostgreSQL without
   * pgvector) searches by keyword whatever the embedder, and its `doctor` checks say why.
   */
  readonly keepsVectors: boolean
  /** Brings the embedder's vectors up to date unless no indexed text changed since the last time. */
  readonly syncVectors: (embedder: EmbedderApi, onProgress?: Progress) => Effect.Effect<void, EmbedderUnavailable>
  /** Whether the model's vectors are caught up with every text change. */
  readonly vectorsCurrent: (model: string) => Effect.Effect<boolean>
  /** The store error a value its driver threw stands for (a damaged file, a held lock, a full disk), if any. */
  readonly errorOf: (thrown: unknown) => StoreError | undefined
}

export class StoreMaintenance extends Context.Tag("memledger/StoreMaintenance")<StoreMaintenance, StoreMaintenanceApi>() {}

/** Which projections' rows differ from a rebuild's, with the first differing row of each. */
export interface ProjectionDifference {
  readonly projection: string
  readonly expected: unknown
  readonly actual: unknown
}

export type Progress = (done: number, total: number) => void

export interface ChainBreak {
  /** The sequence number of the first event that does not verify. */
  readonly brokenAt: number
  readonly reason: string
  /** When verify found it (ISO-8601 UTC). */
  readonly foundAt: string
}

export interface VerifyReport {
  readonly ok: boolean
  readonly events: number
  readonly integrity: string
  readonly chain: { readonly ok: boolean; readonly brokenAt?: number; readonly reason?: string }
  readonly projections: { readonly ok: boolean; readonly differences: ReadonlyArray<ProjectionDifference> }
  /**
   * What this verify did about writes: `refused` them from now on (it found the chain broken),
   * or `lifted` an earlier verify's refusal (it found the chain whole again).
   */
  readonly writes?: { readonly refused: ChainBreak } | { readonly lifted: ChainBreak }
}

export interface PurgeReport {
  readonly conversations: ReadonlyArray<string>
  readonly memories: number
  readonly erasedEvents: number
  /**
   * PostgreSQL: the database's other sessions that could still see the erased text when the
   * tables were vacuumed, after the purge had waited for them; VACUUM keeps what a session may
   * see, so it stays on disk until they end and a purge runs again. Absent when there were none.
   */
  readonly heldBy?: ReadonlyArray<string>
}

export interface Check {
  readonly name: string
  readonly ok: boolean
  readonly detail: string
  /** What to do about it, when not ok. */
  readonly fix?: string
}

/**
 * What the privacy scan did, read from the log (so a rebuild or a replay reports the same):
 * writes whose text had secrets redacted, how many secrets in all, writes that had `<private>`
 * spans dropped, and writes flagged as instruction-like. A write is a `MemoryAdded` or a
 * `MemoryRevised` with new text; restatements store no text and are not counted. Purged
 * payloads are gone, and so is what they said about themselves.
 */
export interface PrivacyCounts {
  readonly redactedWrites: number
  readonly secretsRedacted: number
  readonly privateDroppedWrites: number
  readonly instructionLikeWrites: number
}

/** The export file cannot be written: it is the store, a folder, or its folder is missing. */
export class ExportTargetInvalid extends Schema.TaggedError<ExportTargetInvalid>()("ExportTargetInvalid", {
  file: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot export to ${this.file}: ${this.reason}; nothing was written`
  }
}

/** An event of the log does not verify, so an export of the whole log would not replay. */
export class EventDoesNotVerify extends Schema.TaggedError<EventDoesNotVerify>()("EventDoesNotVerify", {
  seq: Schema.Number,
  reason: Schema.String
}) {
  override get message() {
    return (
      `event #${this.seq} does not verify (${this.reason}); nothing was written. ` +
      `'mem export --verified FILE' writes the ${this.seq - 1} events before it, which 'mem replay' takes into a new store`
    )
  }
}

export interface ExportReport {
  readonly events: number
  readonly file: string
  /** With `verified`: the first event that does not verify, where the export ended. */
  readonly stoppedAt?: number
  readonly reason?: string
}

export interface ExportOptions {
  /** End at the first event that does not verify, instead of refusing to export. */
  readonly verified?: boolean
  /** Hears every 10,000 events written, and the end. */
  readonly onProgress?: Progress
}

export interface ImportReport {
  readonly imported: number
  readonly confirmed: number
  readonly events: number
  readonly ids: ReadonlyArray<string>
}
