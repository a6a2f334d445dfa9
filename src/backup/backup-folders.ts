/**
 * Where a store's backup copies are: its default backup folder, `backups` in the store's state
 * folder (hooks/state-folder.ts), and every other folder `mem backup DIR` (or `mem serve --backup
 * DIR`) has written one of its copies to, listed in `backup-folders.json` beside it. A purge
 * erases forgotten text in the copies of all of them, so a folder is listed as soon as a copy is
 * written there. The list is how the store is run, not knowledge: it is kept outside the log.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { Either, Schema } from "effect"
import { storeStateFolder } from "../hooks/state-folder.js"
import { copyNaming, copyTakenAt } from "./copy-names.js"

export interface ManagedCopy {
  readonly file: string
  readonly name: string
  readonly takenAt: Date
}

export const defaultBackupFolder = (store: string): string => resolve(storeStateFolder(store), "backups")

/** A list of backup folders that does not read: its folders' copies cannot be found. */
export interface UnreadList {
  readonly file: string
  readonly problem: string
}

const foldersFile = (store: string): string => join(storeStateFolder(store), "backup-folders.json")

const BackupFolders = Schema.Struct({ folders: Schema.Array(Schema.String) })

/**
 * The folders that may hold the store's copies: the default first, then those listed. A list
 * that does not read is an error to report (its folders' copies would go unpurged), never
 * taken for an empty one.
 */
export const backupFolders = (store: string): Either.Either<ReadonlyArray<string>, UnreadList> =>
  Either.map(listedFolders(store), (listed) => [...new Set([defaultBackupFolder(store), ...listed])])

/**
 * Lists `folder` among the store's backup folders (the default needs no listing), written whole
 * and renamed so no reader sees half. A list that does not read is left for a person to mend,
 * not written over: purge names it until then.
 */
export const recordBackupFolder = (store: string, folder: string): void => {
  const absolute = resolve(folder)
  const read = listedFolders(store)
  if (Either.isLeft(read)) return
  const listed = read.right
  if (absolute === defaultBackupFolder(store) || listed.includes(absolute)) return
  const file = foldersFile(store)
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  writeFileSync(`${file}.tmp`, `${JSON.stringify({ folders: [...listed, absolute] }, null, 2)}\n`, { mode: 0o600 })
  renameSync(`${file}.tmp`, file)
}

/** The store's copies in `folder`, oldest first; none when there is no such folder. */
export const copiesIn = (folder: string, store: string): ReadonlyArray<ManagedCopy> => {
  if (!existsSync(folder)) return []
  const naming = copyNaming(store)
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .flatMap((entry) => {
      const takenAt = copyTakenAt(naming, entry.name)
      return takenAt === undefined ? [] : [{ file: join(folder, entry.name), name: entry.name, takenAt }]
    })
    .sort((a, b) => a.takenAt.getTime() - b.takenAt.getTime())
}

const listedFolders = (store: string): Either.Either<ReadonlyArray<string>, UnreadList> => {
  const file = foldersFile(store)
  if (!existsSync(file)) return Either.right([])
  try {
    const decoded = Schema.decodeUnknownEither(BackupFolders)(JSON.parse(readFileSync(file, "utf8")))
    return Either.mapBoth(decoded, { onLeft: () => ({ file, problem: "it is not a list of backup folders" }), onRight: (list) => list.folders })
  } catch {
    return Either.left({ file, problem: "it is not JSON" })
  }
}
