/**
 * Importing a JSONL file: one line at a time through the same decide-append-project path as
 * `mem add` (small files), or in bulk (memory lines, from BULK_MIN_LINES lines on). Both make
 * the same decisions in the same order with the same ids, so they write the same log and the
 * same projections (test/core/import-bulk-equivalence.property.test.ts).
 *
 * The bulk path (import-bulk.ts) reads, checks and writes the file one transaction of BULK_BATCH
 * lines at a time:
 * - each line is parsed, privacy-scanned and decided as it is read; a bad line rolls its batch
 *   back, so nothing of it is written (the batches before it are, as on the line-at-a-time
 *   path), and no line outlives its batch (and the next) in memory;
 * - each line is decided against the store (the restatement lookup on `memories_restatement`,
 *   with the indexes intact) and the memories of its batch and of the batch before, kept in
 *   memory; the events are appended through the hash chain, and the projections are folded in
 *   memory and written once per batch: each memory row once, in key order, then the full-text
 *   index in one run, as a rebuild does;
 * - the rows go to a batch writer (store/batch-writer.ts): for a large file, a thread with its
 *   own connection that writes and commits one batch while this thread decides the next; else
 *   this thread's connection;
 * - an exported event among the lines ends the batch before it; the next IMPORT_BATCH lines
 *   then go line by line, as in a small file, and the batches after them in bulk again.
 * Nothing is dropped, so a reader never sees a store without its indexes; it sees each batch at
 * its commit, as with the line-at-a-time path.
 *
 * The bulk path's WAL checkpoints run on a thread of their own (LedgerStore.withCheckpointThread),
 * after each commit, instead of inside the commits.
 */
import { Either } from "effect"
import { checkActor, type Actor } from "../../../commands/actor.js"
import { countLines, ImportLines, parseImport, type ImportItem } from "../../../commands/import-lines.js"
import { afterCommittedLines, type DomainError } from "../../../domain/errors.js"
import type { MakeId } from "../../../domain/ids.js"
import type { BatchWriter } from "../batch-writer.js"
import type { LedgerStore } from "../ledger-store.js"
import { IMPORT_BATCH, importLineByLine as importEachLine } from "../../transfer/import-line-by-line.js"
import { sqliteLogWriter } from "./log-writer.js"
import { importInBulk, type BulkRun, type BulkTotals } from "./import-bulk.js"
import type { Progress } from "../../store-maintenance.js"
import type { ImportReport } from "../../store-maintenance.js"


/**
 * Lines per bulk transaction: a few seconds of write lock at worst (2.5 s at 8,000 lines/s),
 * well inside the 15 s busy_timeout another writer waits; and large enough that the work done
 * once per transaction (commit, FTS segment merges) is spread over many lines.
 */
export const BULK_BATCH = 20_000

/**
 * Files of at least this many lines take the bulk path. Below it, the line-at-a-time path
 * takes under a second and its per-batch commits are what a user watching a progress bar expects;
 * the two write the same rows, so the threshold changes speed only.
 */
export const BULK_MIN_LINES = 1_000

/**
 * Files of at least this many lines are written by a writer thread (store files only). Below
 * it the whole import takes well under a second, of which starting a thread and opening a
 * second connection would be a large part.
 */
export const WRITER_THREAD_MIN_LINES = 10_000

export interface ImportOptions {
  /** Lines per bulk transaction (tests make it small). */
  readonly batchSize?: number
  /** Files of at least this many lines take the bulk path. */
  readonly bulkFrom?: number
  /** Files of at least this many lines are written by a writer thread. */
  readonly writerThreadFrom?: number
  /** Called as each bulk batch begins (see BulkRun). */
  readonly onBatch?: () => void
}

/** Imports a JSONL text: see the module comment. */
export const importJsonl = (
  store: LedgerStore,
  text: string,
  actor: Actor,
  now: number,
  makeIds: (expected: number) => MakeId,
  onProgress?: Progress,
  { batchSize = BULK_BATCH, bulkFrom = BULK_MIN_LINES, writerThreadFrom = WRITER_THREAD_MIN_LINES, onBatch }: ImportOptions = {}
): Either.Either<ImportReport, DomainError> => {
  // The actor lines without their own origin and agent are written under: checked once, here,
  // so that a bad one is not reported as the fault of the first line that uses it.
  const checked = checkActor(actor)
  if (Either.isLeft(checked)) return Either.left(checked.left)
  const total = countLines(text)
  // A line makes at most two ids: its memory's and its event's.
  const makeId = makeIds(total * 2)
  if (total < bulkFrom) return Either.flatMap(parseImport(text, { now }), (items) => importLineByLine(store, items, actor, now, makeId, onProgress))
  const run: BulkRun = { actor, now, makeId, onProgress, batchSize, onBatch }
  return store.withCheckpointThread((checkpoint) => {
    const writer = store.batchWriter(total >= writerThreadFrom)
    try {
      return importFile(store, writer, new ImportLines(text, { now }), total, run, checkpoint)
    } finally {
      writer.close()
    }
  })
}

/** The whole file: memory lines in bulk, and from an exported event on, lines one by one. */
const importFile = (
  store: LedgerStore,
  writer: BatchWriter,
  lines: ImportLines,
  total: number,
  run: BulkRun,
  checkpoint: () => void
): Either.Either<ImportReport, DomainError> => {
  const totals: BulkTotals = { ids: [], imported: 0, confirmed: 0, done: 0 }
  let events = 0
  for (;;) {
    const stopped = importInBulk(store.db, writer, lines, total, run, totals, checkpoint)
    if (Either.isLeft(stopped)) return Either.left(stopped.left)
    if (stopped.right === "end") break
    // The exported event and the lines after it, line by line as in a small file.
    const slowFrom = lines.position.lineNumber
    const items: ImportItem[] = []
    while (items.length < IMPORT_BATCH) {
      const item = lines.next()
      if (item === undefined) break
      if (Either.isLeft(item)) return Either.left(afterCommittedLines(item.left, slowFrom))
      items.push(item.right)
    }
    const slow = importLineByLine(store, items, run.actor, run.now, run.makeId)
    if (Either.isLeft(slow)) return Either.left(afterCommittedLines(slow.left, slowFrom))
    checkpoint()
    for (const id of slow.right.ids) totals.ids.push(id)
    totals.imported += slow.right.imported
    totals.confirmed += slow.right.confirmed
    events += slow.right.events
    totals.done += items.length
    run.onProgress?.(totals.done, total)
  }
  return Either.right({ imported: totals.imported, confirmed: totals.confirmed, events, ids: totals.ids })
}

/** Each line through the decide-append-project path of `mem add`, on this store. */
export const importLineByLine = (
  store: LedgerStore,
  items: ImportItem[],
  actor: Actor,
  now: number,
  makeId: (timeMs: number) => string,
  onProgress?: Progress
): Either.Either<ImportReport, DomainError> => importEachLine(sqliteLogWriter(store), items, actor, now, makeId, onProgress)
