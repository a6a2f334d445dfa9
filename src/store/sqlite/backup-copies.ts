/**
 * Backup copies of a SQLite store: written with SQLite's online backup API while other processes
 * write, checked as `mem verify` checks a store, and purged of what the store has purged.
 */
import { chmodSync, closeSync, openSync } from "node:fs"
import { Either } from "effect"
import type { LedgerConfig } from "../../config.js"
import type { DatabaseUnusable, DiskFull, StoreNotFound } from "../../domain/errors.js"
import type { CopyPurge } from "../store-copies.js"
import { CopyUnreadable } from "../store-copies.js"
import type { VerifyReport } from "../store-maintenance.js"
import { quickCheck, type Db } from "./database.js"
import { lastEvent } from "./event-log.js"
import { LedgerStore } from "./ledger-store.js"
import { erasePayloads } from "./purge.js"
import { verifyStore } from "./verify.js"

/** More pages than any store has: better-sqlite3 takes a step's page count up to this. */
const ALL_PAGES = 0x7fffffff

/**
 * Copies every page in one step, so in one read transaction: a consistent snapshot, which
 * writers in other processes never wait for (WAL). Copied a few pages a step, as the API is
 * often driven, every commit of another process between two steps starts the copy over, and
 * under steady writes it might never end. The file is made owner-only before SQLite writes it,
 * as the store is: a copy holds everything the store holds.
 */
export const copyStore = async (db: Db, toFile: string): Promise<void> => {
  closeSync(openSync(toFile, "w", 0o600))
  chmodSync(toFile, 0o600)
  await db.backup(toFile, { progress: () => ALL_PAGES })
}

/**
 * Opens a copy as a store and verifies it. It is written to only as verify writes to a store
 * (its finding about the chain); a copy of an older version is brought up to this one first.
 */
export const verifyCopyFile = (file: string, config: LedgerConfig, nowIso: string): Either.Either<VerifyReport, CopyUnreadable> =>
  withCopy(file, config, (copy) => Either.right(verifyStore(copy.db, config, nowIso)))

/**
 * Erases from the copy every payload `store` has erased. Sequence numbers name the same events
 * in both only when the copy's log is a beginning of the store's, which its last event's hash
 * shows (the chain ties it to all before it); else the copy is left as it is.
 */
export const purgeCopyFile = (store: LedgerStore, file: string): CopyPurge => {
  const purged = withCopy(file, store.config, (copy): Either.Either<CopyPurge, CopyUnreadable> => {
    const found = quickCheck(copy.db)
    if (found !== "ok") return Either.right({ file, problem: `SQLite finds it damaged (${found}), so it was not purged` })
    const head = lastEvent(copy.db)
    if (head === undefined) return Either.right({ file, erasedEvents: 0 })
    const erased = store.read((db) => ({ same: hashAt(db, head.seq) === head.hash, seqs: erasedThrough(db, head.seq) }))
    if (!erased.same) return Either.right({ file, problem: "its log is not a copy of this store's, so it was not purged" })
    const erase = copy.db.prepare("UPDATE events SET payload = NULL WHERE seq = ? AND payload IS NOT NULL")
    const holding = copy.db.prepare("SELECT 1 FROM events WHERE seq = ? AND payload IS NOT NULL")
    // A copy that holds none of the erased text is left alone: no rebuild, no vacuum.
    if (!erased.seqs.some((seq) => holding.get(seq) !== undefined)) return Either.right({ file, erasedEvents: 0 })
    const erasedEvents = erasePayloads(copy.db, store.config, () => erased.seqs.reduce((n, seq) => n + erase.run(seq).changes, 0))
    return Either.right({ file, erasedEvents })
  })
  return Either.getOrElse(purged, (unreadable) => ({ file, problem: `${unreadable.reason}, so it was not purged` }))
}

const hashAt = (db: Db, seq: number): string | undefined =>
  (db.prepare("SELECT hash FROM events WHERE seq = ?").get(seq) as { hash: string } | undefined)?.hash

const erasedThrough = (db: Db, seq: number): number[] =>
  (db.prepare("SELECT seq FROM events WHERE payload IS NULL AND seq <= ? ORDER BY seq").all(seq) as { seq: number }[]).map((r) => r.seq)

/** Runs `f` on the copy opened as a store, and closes it; a file that does not open as one, or throws, is unreadable. */
const withCopy = <A>(file: string, config: LedgerConfig, f: (copy: LedgerStore) => Either.Either<A, CopyUnreadable>): Either.Either<A, CopyUnreadable> => {
  let opened: ReturnType<typeof LedgerStore.open>
  try {
    opened = LedgerStore.open(file, config, { create: false })
  } catch (error) {
    return Either.left(unreadable(file, error))
  }
  if (Either.isLeft(opened)) return Either.left(new CopyUnreadable({ file, reason: whyNotOpened(opened.left) }))
  try {
    return f(opened.right)
  } catch (error) {
    return Either.left(unreadable(file, error))
  } finally {
    opened.right.close()
  }
}

const whyNotOpened = (error: DatabaseUnusable | StoreNotFound | DiskFull): string =>
  error._tag === "DatabaseUnusable" ? error.reason : error._tag === "StoreNotFound" ? "there is no such file" : error.message

const unreadable = (file: string, error: unknown): CopyUnreadable =>
  new CopyUnreadable({ file, reason: error instanceof Error ? error.message : String(error) })
