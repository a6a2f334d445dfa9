/**
 * Backup copies that are exports of the log (`mem export`'s format), for a store with no file to
 * copy (PostgreSQL): checked as `mem replay` checks an export before it keeps a line of it, and
 * purged by writing the copy again from the store's log, where purge has erased the payloads.
 */
import { readFileSync } from "node:fs"
import { Either } from "effect"
import { ImportLines } from "../../commands/import-lines.js"
import { isExportedEventLine } from "../../events/export-line.js"
import type { CopyPurge } from "../store-copies.js"
import { CopyUnreadable } from "../store-copies.js"
import type { VerifyReport } from "../store-maintenance.js"

/**
 * What `verify` reports of an export: each line read as replay reads it (import-lines.ts, with
 * export-chain.ts): sequence numbers from 1 without a gap, every payload decoding and matching its
 * payloadHash, and every hash the chain hash of its line. An export has no projections to
 * compare. A file whose first line is not an exported event (a SQLite file, a list of memories)
 * is no export at all: unreadable.
 */
export const verifyExportCopy = (file: string): Either.Either<VerifyReport, CopyUnreadable> =>
  Either.flatMap(readCopy(file), (text) => {
    if (!startsAsExport(text)) {
      return Either.left(new CopyUnreadable({ file, reason: "it is not an export of a memledger log: its first line is no exported event" }))
    }
    const lines = new ImportLines(text)
    let events = 0
    for (let item = lines.next(); item !== undefined; item = lines.next()) {
      if (Either.isLeft(item)) return Either.right(report(events, { ok: false, brokenAt: item.left.line, reason: item.left.reason }))
      if (item.right.kind !== "event") {
        return Either.right(report(events, { ok: false, brokenAt: item.right.line, reason: "a memory line, not an exported event" }))
      }
      events++
    }
    return Either.right(report(events, { ok: true }))
  })

/** Whether the text is empty (the export of an empty log) or its first line is an exported event, whole or not. */
const startsAsExport = (text: string): boolean => {
  const first = text.trimStart().split("\n", 1)[0]!
  if (first.length === 0) return true
  try {
    return isExportedEventLine(JSON.parse(first))
  } catch {
    return false
  }
}

/** The store's log, as a purge of an export copy needs it. */
export interface ErasedLog {
  /** The hash of event `seq`, if the log has one. */
  readonly hashAt: (seq: number) => string | undefined
  /** The events up to `seq` whose payloads purge has erased. */
  readonly erasedThrough: (seq: number) => ReadonlyArray<number>
  /** Writes the log's first `seq` events to `file` as `mem export` does (beside it, then renamed onto it), or says why not. */
  readonly exportThrough: (file: string, seq: number) => string | undefined
}

/**
 * Erases from an export copy every payload the store has erased, by writing the copy again from
 * the store's first events, as many as it holds. Sequence numbers name the same events only when
 * the copy's log is a beginning of the store's, which its last hash shows (the chain ties it to
 * every event before it): else the copy is left as it is, and named. A copy that holds none of
 * the erased text is not written at all.
 */
export const purgeExportCopy = (store: ErasedLog, file: string): CopyPurge => {
  const notPurged = (why: string): CopyPurge => ({ file, problem: `${why}, so it was not purged` })
  const read = Either.flatMap(readCopy(file), (text) => exportedEvents(text))
  if (Either.isLeft(read)) return notPurged(read.left instanceof CopyUnreadable ? read.left.reason : read.left)
  const { head, holding } = read.right
  if (head === undefined) return { file, erasedEvents: 0 }
  if (store.hashAt(head.seq) !== head.hash) return notPurged("its log is not a copy of this store's")
  const erased = store.erasedThrough(head.seq).filter((seq) => holding.has(seq))
  if (erased.length === 0) return { file, erasedEvents: 0 }
  const failed = store.exportThrough(file, head.seq)
  return failed === undefined ? { file, erasedEvents: erased.length } : notPurged(`it could not be written again (${failed})`)
}

/** The copy's last event and the events whose payloads it holds, read as replay reads an export. */
const exportedEvents = (text: string): Either.Either<{ head: { seq: number; hash: string } | undefined; holding: Set<number> }, string> => {
  const lines = new ImportLines(text)
  let head: { seq: number; hash: string } | undefined
  const holding = new Set<number>()
  for (let item = lines.next(); item !== undefined; item = lines.next()) {
    if (Either.isLeft(item)) return Either.left(`it does not verify (line ${item.left.line}: ${item.left.reason})`)
    if (item.right.kind !== "event") return Either.left(`it is not an export of a memledger log (line ${item.right.line} is a memory)`)
    const { seq, hash, payload } = item.right.event
    head = { seq, hash }
    if (payload !== null) holding.add(seq)
  }
  return Either.right({ head, holding })
}

const readCopy = (file: string): Either.Either<string, CopyUnreadable> => {
  try {
    return Either.right(readFileSync(file, "utf8"))
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined
    const reason = code === "ENOENT" ? "there is no such file" : error instanceof Error ? error.message : String(error)
    return Either.left(new CopyUnreadable({ file, reason }))
  }
}

const report = (events: number, chain: VerifyReport["chain"]): VerifyReport => ({
  ok: chain.ok,
  events,
  integrity: "ok",
  chain,
  projections: { ok: true, differences: [] }
})
