/**
 * The bulk path of an import (import-memories.ts explains when it is taken and what it writes),
 * one batch of lines per transaction, pipelined: while the writer (batch-writer.ts) writes and
 * commits one batch, this thread decides the next, reading the batch in flight from memory
 * (BulkBatch's `previous`). At most one batch is in flight: a batch is settled before the one
 * after next begins.
 *
 * A batch is decided on the store as it was plus the batch before it; if another writer commits
 * in between, the writer finds the log no longer ending where the batch follows on, and the batch
 * comes back stale: the lines are read again from its first and decided on the store as it now
 * is. A bad line rolls its batch back once the batch before is settled, and is reported with the
 * lines committed before it.
 */
import { sqliteReads } from "../sqlite-reads.js"
import { Either } from "effect"
import type { Actor } from "../../../commands/actor.js"
import { decideAddInput } from "../../../commands/add-input.js"
import type { ImportLines } from "../../../commands/import-lines.js"
import { scanForStorage } from "../../../commands/scanned-content.js"
import { afterCommittedLines, ImportLineInvalid, type DomainError } from "../../../domain/errors.js"
import type { BatchWriter } from "../batch-writer.js"
import type { Db } from "../database.js"
import { BulkBatch } from "./bulk-batch.js"
import { ImportView } from "./import-view.js"
import type { NewEvent } from "../../../events/log.js"
import type { Progress } from "../../store-maintenance.js"

/** What every batch of one bulk import shares. */
export interface BulkRun {
  readonly actor: Actor
  readonly now: number
  readonly makeId: (timeMs: number) => string
  readonly onProgress: Progress | undefined
  readonly batchSize: number
  /** Called as each batch begins (tests write from another connection here, to make a batch stale). */
  readonly onBatch: (() => void) | undefined
}

/** What the bulk path has committed so far. */
export interface BulkTotals {
  readonly ids: string[]
  imported: number
  confirmed: number
  /** Lines done, for the progress bar. */
  done: number
}

/** Why the bulk path stopped: the file ended, or its next line is an exported event. */
export type BulkStop = "end" | "event"

interface Decided {
  readonly ids: ReadonlyArray<string>
  readonly imported: number
  /** Why the batch ended: it was full, the file ended, or the next line is an exported event. */
  readonly stop: "full" | BulkStop
}

/** A batch sent to the writer whose outcome is not read yet. */
interface InFlight {
  readonly batch: BulkBatch
  readonly decided: Decided
  /** Where its first line starts, to read it again if it comes back stale. */
  readonly from: ImportLines["position"]
  /** The number of its last line. */
  readonly through: number
}

/**
 * Imports memory lines in bulk until the file ends or an exported event comes, adding what it
 * commits to `totals`; `checkpoint` is called after each commit (LedgerStore.withCheckpointThread).
 */
export const importInBulk = (
  db: Db,
  writer: BatchWriter,
  lines: ImportLines,
  total: number,
  run: BulkRun,
  totals: BulkTotals,
  checkpoint: () => void
): Either.Either<BulkStop, DomainError> => {
  let committedThrough = lines.position.lineNumber
  let inFlight: InFlight | undefined
  const view = new ImportView(db, total)
  /** Reads the batch in flight's outcome: true when it committed, false when it was stale (and its lines are to be read again). */
  const settle = (): boolean => {
    const sent = inFlight!
    inFlight = undefined
    if (writer.settle() === "stale") {
      lines.rewind(sent.from)
      writer.restart()
      // Another writer's memories and conversations are in the store now.
      view.reload()
      return false
    }
    sent.batch.committed()
    for (const id of sent.decided.ids) totals.ids.push(id)
    totals.imported += sent.decided.imported
    totals.confirmed += sent.decided.ids.length - sent.decided.imported
    totals.done += sent.decided.ids.length
    committedThrough = sent.through
    checkpoint()
    if (sent.decided.ids.length > 0) run.onProgress?.(totals.done, total)
    return true
  }
  for (;;) {
    run.onBatch?.()
    const from = lines.position
    const batch = new BulkBatch(db, writer, view, inFlight?.batch)
    writer.begin(batch.start)
    const decided = decideBatch(db, batch, lines, run)
    if (Either.isLeft(decided)) {
      writer.rollback()
      // If the batch before came back stale, this one was decided on a store that was not, and
      // is read again from there: the bad line is reported only once the lines before it commit.
      if (inFlight !== undefined && !settle()) continue
      return Either.left(afterCommittedLines(decided.left, committedThrough))
    }
    writer.commit()
    const sent: InFlight = { batch, decided: decided.right, from, through: lines.position.lineNumber }
    // The batch before must be settled before this one's successor reads the store.
    if (inFlight !== undefined && !settle()) continue
    batch.previousCommitted()
    inFlight = sent
    const stop = sent.decided.stop
    if (stop === "full") continue
    if (!settle()) continue
    return Either.right(stop)
  }
}

/** Decides up to `run.batchSize` memory lines into `batch`, which sends their rows to the writer. */
const decideBatch = (db: Db, batch: BulkBatch, lines: ImportLines, { actor, now, makeId, batchSize }: BulkRun): Either.Either<Decided, DomainError> => {
  const recordedAt = new Date(now).toISOString()
  const newId = () => makeId(now)
  const pending: NewEvent[] = []
  const ids: string[] = []
  let imported = 0
  let stop: Decided["stop"] = "full"
  while (ids.length < batchSize) {
    const at = lines.position
    const read = lines.next()
    if (read === undefined) {
      stop = "end"
      break
    }
    if (Either.isLeft(read)) return Either.left(read.left)
    const item = read.right
    if (item.kind === "event") {
      lines.rewind(at)
      stop = "event"
      break
    }
    const scanned = scanForStorage(item.input.content)
    if (Either.isLeft(scanned)) return Either.left(new ImportLineInvalid({ line: item.line, reason: scanned.left.message }))
    const decision = decideAddInput(item.input, { reads: sqliteReads(db), state: batch.state, newId }, scanned.right)
    if (Either.isLeft(decision)) return Either.left(new ImportLineInvalid({ line: item.line, reason: decision.left.message }))
    const origin = item.origin ?? actor.origin
    const agent = item.agent ?? actor.agent
    for (const event of decision.right.events) {
      const next: NewEvent = { id: newId(), recordedAt, origin, agent, event }
      pending.push(next)
      batch.apply(next)
    }
    ids.push(decision.right.result.id)
    if (decision.right.result.stored) imported++
    // Appended a thousand at a time, so that the events die young (in V8's young generation)
    // instead of piling up for the whole batch.
    if (pending.length >= 1_000) batch.append(pending.splice(0))
  }
  batch.append(pending)
  batch.finish()
  return Either.right({ ids, imported, stop })
}
