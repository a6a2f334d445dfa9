/**
 * `mem backup restore FILE`: puts a backup copy in place of the store file. Nothing changes
 * unless the copy verifies and no other process has the store open; then the store is moved
 * aside, never deleted, and the copy takes its place.
 *
 * What is verified is a copy of FILE staged beside the store, so FILE itself is never written to
 * (not even by verify's finding), and that staged file is what is renamed into place: the file
 * verified is the file restored, and the rename is atomic on the store's file system.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { Either } from "effect"
import { stamp } from "../../backup/copy-names.js"
import type { LedgerConfig } from "../../config.js"
import { RestoreRefused, verifyFailure, type RestoreReport } from "../store-copies.js"
import { verifyCopyFile } from "./backup-copies.js"
import { openDatabase } from "./database.js"

/** The store file and the two SQLite keeps beside it while it is open. */
const SQLITE_FILES = ["", "-wal", "-shm"]

export const restoreCopy = (storePath: string, file: string, config: LedgerConfig, now: Date): Either.Either<RestoreReport, RestoreRefused> => {
  const store = resolve(storePath)
  const copy = resolve(file)
  const refuse = (reason: string) => Either.left(new RestoreRefused({ file, reason }))
  if (!existsSync(copy) || !statSync(copy).isFile()) return refuse("there is no such file")
  if (copy === store) return refuse("it is the store itself")
  const staged = `${store}.restoring`
  try {
    stage(copy, staged)
    const verified = verifyCopyFile(staged, config, now.toISOString())
    if (Either.isLeft(verified)) return refuse(verified.left.reason)
    if (!verified.right.ok) return refuse(`it does not verify: ${verifyFailure(verified.right)}`)
    if (openElsewhere(store)) return refuse("another process has the store open (mem serve, an MCP server, a hook): stop it, then restore")
    const movedAside = existsSync(store) ? moveAside(store, `${store}.before-restore-${stamp(now)}`) : undefined
    putInPlace(staged, store, movedAside)
    return Either.right({ restored: copy, store, events: verified.right.events, ...(movedAside === undefined ? {} : { movedAside }) })
  } finally {
    removeSqliteFiles(staged)
  }
}

/** A copy of FILE (and of a WAL beside it, which holds its last commits) to verify, owner-only as the store. */
const stage = (copy: string, staged: string): void => {
  removeSqliteFiles(staged)
  mkdirSync(dirname(staged), { recursive: true, mode: 0o700 })
  copyFileSync(copy, staged)
  chmodSync(staged, 0o600)
  if (existsSync(`${copy}-wal`)) copyFileSync(`${copy}-wal`, `${staged}-wal`)
}

/**
 * Whether another process has the store open. SQLite removes the WAL when the last connection
 * to a file closes it; so, after checkpointing and closing a connection of its own, a WAL still
 * there is another process's. A store that does not open (damaged, what a restore is often
 * for) cannot tell, and is taken for closed.
 */
const openElsewhere = (store: string): boolean => {
  if (!existsSync(store)) return false
  const opened = openDatabase(store, { create: false })
  if (Either.isLeft(opened)) return false
  try {
    opened.right.pragma("wal_checkpoint(TRUNCATE)")
  } catch {
    // A checkpoint refused (a damaged page, a reader in the way): the WAL tells all the same.
  } finally {
    opened.right.close()
  }
  return existsSync(`${store}-wal`)
}

/** Renames the store and what SQLite keeps beside it to `aside`; returns `aside`. */
const moveAside = (store: string, aside: string): string => {
  for (const suffix of SQLITE_FILES) if (existsSync(`${store}${suffix}`)) renameSync(`${store}${suffix}`, `${aside}${suffix}`)
  return aside
}

/** The verified copy becomes the store; if that fails, the store moved aside is put back. */
const putInPlace = (staged: string, store: string, movedAside: string | undefined): void => {
  try {
    renameSync(staged, store)
  } catch (error) {
    if (movedAside !== undefined) moveAside(movedAside, store)
    throw error
  }
}

const removeSqliteFiles = (path: string): void => {
  for (const suffix of SQLITE_FILES) rmSync(`${path}${suffix}`, { force: true })
}
