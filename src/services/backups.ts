/**
 * The `Backups` service: `mem backup` writes a copy of the store into a folder, verifies it,
 * keeps it under its dated name and applies retention there; a purge erases forgotten text in
 * every copy the store manages. Copying, checking and purging one copy are the store's own work
 * (the maintenance port); which copies, where, and which to keep are the same for every store.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { Clock, Context, Effect, Either, Layer } from "effect"
import { backupFolders, copiesIn, defaultBackupFolder, recordBackupFolder } from "../backup/backup-folders.js"
import { copyName, copyNaming } from "../backup/copy-names.js"
import { retention } from "../backup/retention.js"
import type { DiskFull, DomainError } from "../domain/errors.js"
import { BackupFailed, RestoreRefused, verifyFailure, type BackupReport, type CopyPurge, type RestoreReport } from "../store/store-copies.js"
import { StoreMaintenance, type StoreMaintenanceApi } from "../store/store-maintenance.js"

export interface BackupsApi {
  /** A verified copy in `folder` (default: the store's backup folder), then retention there. */
  readonly backup: (folder?: string) => Effect.Effect<BackupReport, BackupFailed | DiskFull>
}

export class Backups extends Context.Tag("memledger/Backups")<Backups, BackupsApi>() {}

export const makeBackups: Effect.Effect<BackupsApi, never, StoreMaintenance> = Effect.map(StoreMaintenance, (store) => ({
  backup: (folder) => backupInto(store, folder)
}))

export const BackupsLive = Layer.effect(Backups, makeBackups)

/** Purges, in each copy the store manages, what the store has erased; names each copy it could not. */
export const purgeCopies = (store: StoreMaintenanceApi): Effect.Effect<ReadonlyArray<CopyPurge>> =>
  Effect.flatMap(copiesToPurge(store), (copies) =>
    Effect.forEach(copies, (copy) => (copy.problem === undefined ? store.purgeCopy(copy.file) : Effect.succeed(copy)))
  )

/** The copies a purge would go through, and a list of folders that does not read (whose copies it cannot find). */
export const copiesToPurge = (store: StoreMaintenanceApi): Effect.Effect<ReadonlyArray<CopyPurge>> =>
  Effect.sync(() => {
    const folders = backupFolders(store.location)
    const searched = Either.getOrElse(folders, () => [defaultBackupFolder(store.location)])
    const found: CopyPurge[] = searched.flatMap((folder) => copiesIn(folder, store.location)).map((copy) => ({ file: copy.file }))
    if (Either.isRight(folders)) return found
    return [...found, { file: folders.left.file, problem: `${folders.left.problem}, so the copies in the folders it lists were not found` }]
  })

/**
 * Puts an export copy (a database's backup, `mem backup` on PostgreSQL) into the store by
 * replaying it, and only into a store whose log is empty: a team's log is never dropped to make
 * room, so a store that holds events is refused with the way to restore beside it. The caller has
 * verified the copy (before opening the store, so a copy that does not verify leaves a new
 * database as it was); replay checks every line again as it reads, in one transaction, so a copy
 * changed since is refused with nothing kept.
 */
export const restoreExport = (store: StoreMaintenanceApi, file: string): Effect.Effect<RestoreReport, RestoreRefused | DomainError> =>
  Effect.gen(function* () {
    const refuse = (reason: string) => Effect.fail(new RestoreRefused({ file, reason }))
    const replayed = yield* store.replay(readFileSync(file, "utf8")).pipe(
      // Whether the log is empty is replay's to check, under the write lock: no write gets in between.
      Effect.catchTag("ReplayTargetNotEmpty", (full) => refuse(notEmpty(store.location, full.events)))
    )
    return { restored: resolve(file), store: store.location, events: replayed.events }
  })

const notEmpty = (store: string, events: number): string =>
  `${store} already holds ${events === 1 ? "1 event" : `${events} events`}, and a backup is restored only into an empty store, ` +
  "never over a log (it is not dropped to make room); create an empty database (createdb NAME), restore into it with " +
  "'mem --db postgres://.../NAME backup restore FILE', then point the servers at it (MEMLEDGER_DB)"

const backupInto = (store: StoreMaintenanceApi, given: string | undefined) =>
  Effect.gen(function* () {
    const folder = resolve(given ?? defaultBackupFolder(store.location))
    yield* prepareFolder(folder)
    const name = copyName(copyNaming(store.location), new Date(yield* Clock.currentTimeMillis))
    const file = join(folder, name)
    const events = yield* writeVerified(store, join(folder, `.${name}.partial`), file)
    if (given !== undefined) recordBackupFolder(store.location, folder)
    const { keep, remove } = retention(copiesIn(folder, store.location))
    for (const copy of remove) rmSync(copy.file, { force: true })
    return { file, events, kept: keep.map((c) => c.name), removed: remove.map((c) => c.name) }
  })

/**
 * Writes the copy under a name no copy has (`partial`), verifies it there, and only then gives
 * it its copy's name: a copy half-written, or failing its check, is never kept or counted.
 */
const writeVerified = (store: StoreMaintenanceApi, partial: string, file: string) =>
  Effect.gen(function* () {
    yield* store.backup(partial)
    const report = yield* store.verifyCopy(partial, new Date(yield* Clock.currentTimeMillis).toISOString()).pipe(
      Effect.mapError((unreadable) => new BackupFailed({ folder: dirname(file), reason: `the copy ${unreadable.reason}` }))
    )
    if (!report.ok) {
      const reason = `the copy does not verify, ${verifyFailure(report)}; 'mem verify' checks the store itself`
      return yield* Effect.fail(new BackupFailed({ folder: dirname(file), reason }))
    }
    renameSync(partial, file)
    return report.events
  }).pipe(Effect.ensuring(Effect.sync(() => rmSync(partial, { force: true }))))

/** The folder, made owner-only if it is missing (a copy holds everything the store holds). */
const prepareFolder = (folder: string): Effect.Effect<void, BackupFailed> =>
  Effect.try({
    try: () => {
      if (existsSync(folder) && !statSync(folder).isDirectory()) throw new Error("it is not a folder")
      mkdirSync(folder, { recursive: true, mode: 0o700 })
    },
    catch: (error) => new BackupFailed({ folder, reason: error instanceof Error ? error.message : String(error) })
  })
