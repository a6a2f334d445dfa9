/**
 * The maintenance port on PostgreSQL. Moving a log in and out is the shared transfer code
 * (store/transfer) over this store's writes and reads; rebuild, verify and purge are this
 * store's own. A database has no file to copy: its backup copies are exports of its log, taken
 * on one snapshot, checked as replay checks an export, and purged by writing them again from the
 * purged log (transfer/export-copies.ts). The embedder's vectors are kept by the sync every
 * store shares (store/vector-sync.ts) in pgvector's tables (vector-tables.ts), where the
 * database has pgvector; where it has not, the store keeps none, searches are keyword ones, and
 * `doctor`'s "vectors" check says why.
 */
import { randomBytes } from "node:crypto"
import { dirname } from "node:path"
import { Effect, Either } from "effect"
import { checkActor } from "../../commands/actor.js"
import { countLines, parseImport } from "../../commands/import-lines.js"
import { DiskFull } from "../../domain/errors.js"
import { makeImportIdFactory } from "../../domain/ids.js"
import { LogBroken, StoreLocked } from "../errors.js"
import { BackupFailed } from "../store-copies.js"
import type { StoreError } from "../errors.js"
import type { Check, PrivacyCounts, StoreMaintenanceApi } from "../store-maintenance.js"
import { purgeExportCopy, verifyExportCopy, type ErasedLog } from "../transfer/export-copies.js"
import { exportLog, type ExportSource } from "../transfer/export-file.js"
import { importLineByLine } from "../transfer/import-line-by-line.js"
import type { LogWriter } from "../transfer/log-writer.js"
import { replayLog } from "../transfer/replay.js"
import { lastEvent, readRows } from "./event-log.js"
import type { PgLedger } from "./pg-ledger.js"
import { previewPurge, purgeForgotten } from "./purge.js"
import { rebuildProjections, vacuumRebuilt } from "./rebuild.js"
import { PgError, type SyncPg } from "./sync-client.js"
import { vectorCheckDetail } from "./vector-support.js"
import { pgVectorStore } from "./vector-tables.js"
import { ensureVectors, vectorsCurrent } from "../vector-sync.js"
import { verifyStore } from "./verify.js"

export const pgMaintenance = (ledger: PgLedger): StoreMaintenanceApi => {
  const config = ledger.config
  return {
    location: ledger.location,
    bytes: Effect.sync(() => ledger.read((db) => db.one<{ n: number }>("SELECT pg_database_size(current_database()) AS n")!.n)),
    isEmpty: Effect.sync(() => ledger.read((db) => lastEvent(db) === undefined)),
    importJsonl: (text, actor, nowMs, onProgress) =>
      Effect.suspend(() => {
        const checked = checkActor(actor)
        if (Either.isLeft(checked)) return Either.left(checked.left)
        const makeId = makeImportIdFactory(countLines(text) * 2, (n) => randomBytes(n))
        return Either.flatMap(parseImport(text, { now: nowMs }), (items) => importLineByLine(pgLogWriter(ledger), items, actor, nowMs, makeId, onProgress))
      }),
    exportTo: (file, options) => Effect.suspend(() => exportLog(pgExportSource(ledger), file, options)),
    replay: (text, onProgress) => Effect.suspend(() => replayLog(pgLogWriter(ledger), text, onProgress)).pipe(Effect.tap(() => Effect.sync(() => vacuumRebuilt(ledger.db)))),
    rebuild: (onProgress) =>
      Effect.sync(() => {
        const rebuilt = ledger.writeOrThrow((tx) => rebuildProjections(tx.db, config, onProgress))
        vacuumRebuilt(ledger.db)
        return rebuilt
      }),
    verify: (nowIso, onProgress) => Effect.sync(() => verifyStore(ledger, config, nowIso, onProgress)),
    purge: (options, onProgress) => Effect.sync(() => purgeForgotten(ledger, config, options, onProgress)),
    purgePreview: (options) => Effect.sync(() => previewPurge(ledger, options)),
    checks: Effect.sync(() => ledger.read((db) => checks(db, ledger))),
    privacyCounts: Effect.sync(() => ledger.read((db) => db.one<PrivacyCounts>(PRIVACY_COUNTS)!)),
    // The export reads the log in one REPEATABLE READ transaction: the log as one commit left it,
    // whatever others write meanwhile (each write appends after the head it read under the lock,
    // and commits before the next takes it, so every snapshot holds a beginning of the log).
    backup: (toFile) =>
      Effect.suspend(() => exportLog(pgExportSource(ledger), toFile)).pipe(
        Effect.asVoid,
        Effect.catchTags({
          ExportTargetInvalid: (invalid) => Effect.fail(new BackupFailed({ folder: dirname(toFile), reason: invalid.reason })),
          EventDoesNotVerify: (broken) =>
            Effect.fail(
              new BackupFailed({
                folder: dirname(toFile),
                reason: `event #${broken.seq} of the store does not verify (${broken.reason}); 'mem verify' checks the store itself`
              })
            )
        })
      ),
    verifyCopy: (file) => Effect.suspend(() => verifyExportCopy(file)),
    purgeCopy: (file) => Effect.sync(() => purgeExportCopy(pgErasedLog(ledger), file)),
    keepsVectors: ledger.vectors.kept,
    syncVectors: (embedder, onProgress) => (ledger.vectors.kept ? ensureVectors(pgVectorStore(ledger), embedder, onProgress) : Effect.void),
    // Without pgvector there is nothing to catch up with: `doctor` says why searches are keyword ones.
    vectorsCurrent: (model) => Effect.sync(() => !ledger.vectors.kept || vectorsCurrent(pgVectorStore(ledger), model)),
    errorOf: (thrown) => pgStoreErrorOf(thrown, ledger.location)
  }
}

const checks = (db: SyncPg, ledger: PgLedger): Check[] => {
  const version = db.one<{ v: string }>("SELECT current_setting('server_version') AS v")!.v
  const models = ledger.vectors.kept
    ? db.query<{ model: string; vectors: number }>(
        `SELECT m.model, count(v.key) AS vectors FROM vector_models m LEFT JOIN memory_vectors v ON v.model = m.model
          GROUP BY m.model ORDER BY m.model`
      )
    : []
  return [
    { name: "postgresql", ok: true, detail: `PostgreSQL ${version} at ${ledger.location}` },
    // Not a failure without pgvector: a keyword store works, and one without an embedder wants no vectors.
    { name: "vectors", ok: true, detail: vectorCheckDetail(ledger.vectors, models) }
  ]
}

export const pgLogWriter = (ledger: PgLedger): LogWriter => ({
  location: ledger.location,
  write: (f) =>
    ledger.write((tx) =>
      f({
        ...tx,
        hasEvent: (id) => tx.db.one("SELECT 1 FROM events WHERE id = $1", [id]) !== undefined,
        eventCount: () => lastEvent(tx.db)?.seq ?? 0,
        rebuild: () => rebuildProjections(tx.db, ledger.config)
      })
    )
})

const pgExportSource = (ledger: PgLedger): ExportSource => ({
  files: [],
  read: (f) => ledger.read((db) => f(readRows(db), () => lastEvent(db)?.seq ?? 0)),
  diskFull: (error, file) =>
    error instanceof Error && "code" in error && (error.code === "ENOSPC" || error.code === "EDQUOT") ? new DiskFull({ path: file }) : undefined
})

/** The log as a purge of an export copy reads it, and writes the copy again from it. */
const pgErasedLog = (ledger: PgLedger): ErasedLog => ({
  hashAt: (seq) => ledger.read((db) => db.one<{ hash: string }>("SELECT hash FROM events WHERE seq = $1", [seq])?.hash),
  erasedThrough: (seq) =>
    ledger.read((db) => db.query<{ seq: number }>("SELECT seq FROM events WHERE payload IS NULL AND seq <= $1 ORDER BY seq", [seq]).map((r) => r.seq)),
  exportThrough: (file, seq) => {
    const through: ExportSource = {
      ...pgExportSource(ledger),
      read: (f) => ledger.read((db) => f(readRows(db, { before: seq + 1 }), () => seq))
    }
    const written = exportLog(through, file)
    return Either.isLeft(written) ? written.left.message : undefined
  }
})

/** PostgreSQL's SQLSTATEs for a full disk, and for a lock not granted in time. */
export const pgStoreErrorOf = (thrown: unknown, location: string): StoreError | undefined => {
  if (thrown instanceof LogBroken) return thrown
  if (!(thrown instanceof PgError)) return undefined
  if (thrown.code === "53100") return new DiskFull({ path: location })
  if (thrown.code === "55P03" || thrown.code === "57014") return new StoreLocked({ path: location, waitedMs: 0 })
  return undefined
}

const PRIVACY_COUNTS = `
  SELECT count(*) FILTER (WHERE jsonb_array_length(coalesce(p -> 'redacted', '[]')) > 0) AS "redactedWrites",
         coalesce(sum(jsonb_array_length(coalesce(p -> 'redacted', '[]'))), 0) AS "secretsRedacted",
         count(*) FILTER (WHERE coalesce((p ->> 'privateDropped')::numeric, 0) > 0) AS "privateDroppedWrites",
         count(*) FILTER (WHERE coalesce(p -> 'flags', '[]') ? 'instruction-like') AS "instructionLikeWrites"
    FROM (SELECT payload::jsonb AS p FROM events
           WHERE type IN ('MemoryAdded', 'MemoryRevised') AND payload IS NOT NULL
             AND (strpos(payload, '"redacted":') > 0 OR strpos(payload, '"privateDropped":') > 0 OR strpos(payload, '"flags":') > 0)) x`
