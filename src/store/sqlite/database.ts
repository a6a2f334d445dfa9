/**
 * Opens a memledger SQLite file: owner-only permissions, WAL, a busy timeout so concurrent
 * writers wait rather than fail, and an identity check so that a file which is not ours (or
 * is damaged) is reported and never overwritten.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from "node:fs"
import { dirname, resolve } from "node:path"
import Database from "better-sqlite3"
import { Either } from "effect"
import { DatabaseUnusable, type DiskFull, StoreNotFound } from "../../domain/errors.js"
import { diskFullOf } from "./disk-full.js"
import type { StoreOpening } from "../opening.js"

export type Db = Database.Database

/** "meml" in ASCII: marks a SQLite file as a memledger store. */
export const APPLICATION_ID = 0x6d656d6c
export const BUSY_TIMEOUT_MS = 15_000

/** Whether opening a store may create it: false for a command with nothing to do on a new one. */

export interface OpenOptions extends StoreOpening {
  readonly readonly?: boolean
}

export const openDatabase = (path: string, options: OpenOptions = {}): Either.Either<Db, DatabaseUnusable | StoreNotFound | DiskFull> => {
  if (path.trim() === "") return Either.left(new DatabaseUnusable({ path, reason: "the path is empty; give the store file's path" }))
  const file = path === ":memory:" ? path : resolve(path)
  if (file !== ":memory:") {
    const problem = unusablePath(file)
    if (problem !== undefined) return Either.left(new DatabaseUnusable({ path: file, reason: problem }))
    if (options.create === false && !existsSync(file)) return Either.left(new StoreNotFound({ path: file }))
    try {
      prepareFile(file)
    } catch (error) {
      return Either.left(unusable(file, error))
    }
  }
  let db: Db
  try {
    // `timeout` is SQLite's busy_timeout: a connection that finds the file locked waits this long.
    db = new Database(file, { readonly: options.readonly ?? false, timeout: BUSY_TIMEOUT_MS })
  } catch (error) {
    return Either.left(unusable(file, error))
  }
  try {
    const identity = whileBusy(() => configure(db, options.readonly ?? false))
    if (identity !== undefined) {
      db.close()
      return Either.left(new DatabaseUnusable({ path: file, reason: identity }))
    }
    return Either.right(db)
  } catch (error) {
    db.close()
    return Either.left(unusable(file, error))
  }
}

/** Sets a new connection up; returns why the file is not a store of ours, if it is not. */
const configure = (db: Db, readonly: boolean): string | undefined => {
  // Reads through a memory map instead of a read() per 4 KiB page: a hybrid search scans
  // every vector of its places, and this took its p95 at 100,000 memories from 76 to 48 ms
  // (bench/search). The map grows with the file, up to this size; pages stay the OS's cache.
  db.pragma(`mmap_size = ${MMAP_BYTES}`)
  const identity = checkIdentity(db)
  if (identity !== undefined || readonly) return identity
  db.pragma("journal_mode = WAL")
  for (const setting of WRITE_PRAGMAS) db.pragma(setting)
  return undefined
}

/**
 * Runs `f` again while SQLite says the file is busy, for as long as the busy timeout. Most
 * statements wait in SQLite's own busy handler; switching a new file to WAL while other
 * processes are creating the same store can be refused at once instead (SQLite will not wait
 * where waiting could deadlock), and the next attempt finds the file settled.
 */
const whileBusy = <A>(f: () => A): A => {
  const started = Date.now()
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return f()
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? "")
      const busy = code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")
      if (!busy || Date.now() - started >= BUSY_TIMEOUT_MS) throw error
      Atomics.wait(PAUSE, 0, 0, pause)
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4))

/**
 * The settings of a connection that writes (a bulk import's writer thread opens one too, and
 * sets the busy timeout itself, which `openDatabase` gives every connection as it opens it).
 */
export const WRITE_PRAGMAS: ReadonlyArray<string> = [
  "synchronous = NORMAL",
  // Restatement keys are hashes, and ids random after their minute (but an import's), so index
  // inserts land all over their B-trees: a 64 MiB page cache (default 2 MiB) keeps them from
  // re-reading pages on every insert.
  "cache_size = -65536",
  "temp_store = MEMORY",
  // Checkpoint the WAL every ~40 MiB instead of every 4 MiB: bulk writes copy each page once.
  "wal_autocheckpoint = 10000"
]

/** How much of the file reads may map: 1 GiB, a million memories with 512-dimension vectors. */
export const MMAP_BYTES = 1024 * 1024 * 1024

/**
 * Why a path cannot hold a store, before anything is created: a folder (SQLite would only say
 * "unable to open database file"), or a path that runs through a regular file.
 */
export const unusablePath = (file: string): string | undefined => {
  if (isDirectory(file)) return "it is a directory; give a file path"
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const stat = statOrUndefined(dir)
    if (stat !== undefined) return stat.isDirectory() ? undefined : `${dir} is not a directory, so nothing can be created under it`
    if (dirname(dir) === dir) return undefined
  }
}

/** SQLite's own quick check of the file's pages and indexes: "ok", or what it found. */
export const quickCheck = (db: Db): string => {
  const rows = db.pragma("quick_check(5)") as Array<{ quick_check: string }>
  return rows.map((r) => r.quick_check.replace(/\s*\n\s*/g, " ")).join("; ") || "unknown"
}

/** Undefined for a path that does not exist, or cannot (ENOTDIR: it runs through a file). */
const statOrUndefined = (path: string) => {
  try {
    return statSync(path, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}
const isDirectory = (path: string): boolean => statOrUndefined(path)?.isDirectory() ?? false

/** Creates the folder (0700) and the file (0600) before SQLite does, so neither is ever readable by others. */
const prepareFile = (file: string): void => {
  const dir = dirname(file)
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 })
  if (!existsSync(file)) {
    closeSync(openSync(file, "a", 0o600))
    chmodSync(file, 0o600)
  }
}

/**
 * Returns why the file is unusable, or undefined when it is ours or empty. The application id
 * and the table count are read by one statement, so from one snapshot: read apart, another
 * process's creation of the store could commit between them, and a store whose id was read
 * before it and whose tables after it would pass for a foreign file.
 */
const checkIdentity = (db: Db): string | undefined => {
  const { appId, tables } = db.prepare(IDENTITY_SQL).get() as { appId: number; tables: number }
  if (appId === APPLICATION_ID) return undefined
  if (appId === 0 && tables === 0) return undefined
  return "it is a SQLite database, but not a memledger store; refusing to touch it (pass --db with another path)"
}

const IDENTITY_SQL = "SELECT (SELECT application_id FROM pragma_application_id) AS appId, (SELECT count(*) FROM sqlite_schema) AS tables"

/** Why opening failed: a full disk is said as one, anything else as the file's problem. */
const unusable = (file: string, error: unknown): DatabaseUnusable | DiskFull =>
  diskFullOf(error, file) ?? new DatabaseUnusable({ path: file, reason: describe(error) })

const describe = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error)
  if (/not a database|malformed|file is encrypted/i.test(message)) {
    return `the file is not a SQLite database or it is damaged (${message}); it was left untouched`
  }
  return message
}

export const fileSize = (path: string): number => (existsSync(path) ? statSync(path).size : 0)
