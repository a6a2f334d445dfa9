/**
 * The unit of work over one SQLite file: reads see one consistent snapshot, and writes run in
 * BEGIN IMMEDIATE so that deciding, appending and projecting happen under one lock. Any number
 * of processes may share the file; a writer that finds it locked waits (busy_timeout).
 *
 * Writes that may wait for the event loop's next turn (`writeSoon`: the record of what a search
 * showed) are grouped: those queued in one turn commit in one transaction, so concurrent
 * searches pay one commit between them instead of one each.
 */
import { Either } from "effect"
import type { LedgerConfig } from "../../config.js"
import type { DatabaseUnusable, DiskFull, StoreNotFound } from "../../domain/errors.js"
import type { MemoryId } from "../../domain/ids.js"
import type { StoredEvent } from "../../events/events.js"
import { appendEvents, appendRaw } from "./event-log.js"
import type { DecisionState } from "../../commands/state.js"
import type { WriteUnit } from "../event-log.js"
import { sqliteReads } from "./sqlite-reads.js"
import { loadConversation } from "./projections/conversations.js"
import { findRestatement, loadMemory } from "./projections/memories.js"
import { openProjectionSession } from "./projections/projector.js"
import type { ProjectionSession } from "../../projections/projector.js"
import { refuseIfBroken } from "./chain-break.js"
import { openDatabase, type Db } from "./database.js"
import { CheckpointThread } from "./checkpoint-thread.js"
import { isReady, prepareSchema } from "./schema.js"
import { LocalBatchWriter, type BatchWriter } from "./batch-writer.js"
import { WriterThread } from "./writer-thread.js"
import { endReaderThread } from "./read-offload.js"
import type { NewEvent, RawEvent } from "../../events/log.js"
import type { StoreOpening } from "../opening.js"

/** A write's unit of work (the port's `WriteUnit`) with the connection and raw appends. */
export interface WriteTx extends WriteUnit {
  readonly db: Db
  /** Appends rows as an export carried them (replay, import of events), then projects them. */
  readonly appendRaw: (rows: ReadonlyArray<RawEvent>) => StoredEvent[]
}

export class LedgerStore {
  /** Writes queued by `writeSoon`, run together at the next `setImmediate` or before any other write. */
  private queued: Array<QueuedWrite> = []
  /** What closes with the store: what its readers keep beside it (a past store in memory). */
  private closing: Array<() => void> = []

  private constructor(
    readonly db: Db,
    readonly path: string,
    readonly config: LedgerConfig
  ) {}

  static open(path: string, config: LedgerConfig, opening: StoreOpening = {}): Either.Either<LedgerStore, DatabaseUnusable | StoreNotFound | DiskFull> {
    return Either.map(openDatabase(path, opening), (db) => {
      if (!isReady(db, config)) db.transaction(() => prepareSchema(db, config)).immediate()
      return new LedgerStore(db, path, config)
    })
  }

  /**
   * Runs `f` under the write lock. If it returns a Left (a domain error) or throws, nothing it
   * appended is kept: the transaction rolls back.
   */
  write<A, E>(f: (tx: WriteTx) => Either.Either<A, E>): Either.Either<A, E> {
    try {
      return this.writeOrThrow((tx) => {
        const result = f(tx)
        if (Either.isLeft(result)) throw new RollBack(result)
        return result
      })
    } catch (error) {
      if (error instanceof RollBack) return error.result as Either.Either<A, E>
      throw error
    }
  }

  /**
   * Runs `f` under the write lock; if it throws, nothing it appended is kept. The projections'
   * deferred writes (see ProjectionSession) are made after `f` returns, before the commit.
   */
  writeOrThrow<A>(f: (tx: WriteTx) => A): A {
    // Queued writes were asked for first: they commit first, so the log keeps the order of asking.
    if (!this.db.inTransaction) this.flushQueued()
    return this.transact(f)
  }

  /**
   * Runs `f` under the write lock soon, in one transaction with every other write queued
   * before the event loop turns, and resolves with its result once that transaction has
   * committed (or, for a Left, once `f`'s own transaction rolled back): whoever answers after
   * the promise resolves answers after the write is durable. A write that throws rejects its
   * promise only: when any write of a group returns a Left or throws, the group rolls back and
   * each of its writes runs again in a transaction of its own, so one write's failure is never
   * another's. Any `write` made meanwhile, and `close`, run the queued writes first.
   */
  writeSoon<A, E>(f: (tx: WriteTx) => Either.Either<A, E>): Promise<Either.Either<A, E>> {
    return new Promise((resolve, reject) => {
      if (this.queued.length === 0) setImmediate(() => this.flushQueued())
      this.queued.push({ f, resolve: resolve as QueuedWrite["resolve"], reject })
    })
  }

  private flushQueued(): void {
    const group = this.queued
    if (group.length === 0) return
    this.queued = []
    if (group.length > 1) {
      let grouped: Array<Either.Either<unknown, unknown>> | undefined
      try {
        grouped = this.transact((tx) => {
          const results = group.map((w) => {
            const result = attempt(() => w.f(tx))
            // An error that ended the transaction itself (SQLite rolls back on a full disk, for
            // one) must not let the next writes run outside it, committed one by one.
            if (!this.db.inTransaction) throw new GroupFailed()
            return result
          })
          // One of them failed: none is kept, and each runs alone below, as if never grouped.
          if (!results.every((r) => r !== undefined && Either.isRight(r))) throw new GroupFailed()
          return results as Array<Either.Either<unknown, unknown>>
        })
      } catch (error) {
        if (!(error instanceof GroupFailed)) {
          // The transaction itself failed (the lock never came, the disk is full): so did every write.
          for (const w of group) w.reject(error)
          return
        }
      }
      if (grouped !== undefined) {
        group.forEach((w, i) => w.resolve(grouped[i]!))
        return
      }
    }
    for (const w of group) {
      try {
        w.resolve(this.write(w.f))
      } catch (error) {
        w.reject(error)
      }
    }
  }

  private transact<A>(f: (tx: WriteTx) => A): A {
    return this.db
      .transaction(() => {
        // Under the lock, so a verify that found the log broken in another process is seen here.
        refuseIfBroken(this.db, this.path)
        const session = openProjectionSession(this.db, this.config)
        const project = (stored: StoredEvent[]): StoredEvent[] => {
          session.apply(stored)
          return stored
        }
        const result = f({
          db: this.db,
          reads: sqliteReads(this.db),
          state: this.decisionState(session),
          append: (events) => project(appendEvents(this.db, events)),
          appendRaw: (rows) => project(appendRaw(this.db, rows))
        })
        session.finish()
        return result
      })
      .immediate()
  }

  /**
   * Runs `f` with this connection's automatic checkpoints off and a checkpoint thread
   * (checkpoint-thread.ts) doing them instead: `f` calls `checkpoint` after each of its commits.
   * Before returning, it waits for the checkpoints asked for, so the WAL is as small as the
   * automatic ones would have left it. A store in memory has no WAL, and a thread may fail to
   * start: then `checkpoint` does nothing and the connection checkpoints as it always does.
   */
  withCheckpointThread<A>(f: (checkpoint: () => void) => A): A {
    if (this.db.memory) return f(() => {})
    const interval = this.db.pragma("wal_autocheckpoint", { simple: true }) as number
    const thread = CheckpointThread.start(this.db)
    if (thread === undefined) return f(() => {})
    try {
      this.db.pragma("wal_autocheckpoint = 0")
      return f(() => thread.request())
    } finally {
      try {
        this.db.pragma(`wal_autocheckpoint = ${interval}`)
      } finally {
        thread.stop()
      }
    }
  }

  /**
   * Where a bulk import writes its batches (batch-writer.ts): a writer thread with its own
   * connection when `thread` is asked for and the store is a file (a store in memory has no
   * other connection), else this connection. Writes queued by `writeSoon` commit first, as
   * before any write; the import must not run inside one.
   */
  batchWriter(thread: boolean): BatchWriter {
    if (this.db.inTransaction) throw new Error("a bulk import cannot run inside a write")
    // Checked as the import starts: its batches are written outside `transact`.
    refuseIfBroken(this.db, this.path)
    this.flushQueued()
    return thread && !this.db.memory ? WriterThread.open(this.db.name) : new LocalBatchWriter(this.db)
  }

  /** Runs `f` on one snapshot, so a multi-query read never sees half of another's write. */
  read<A>(f: (db: Db) => A): A {
    if (this.db.inTransaction) return f(this.db)
    return this.db.transaction(() => f(this.db)).deferred()
  }

  /** Inside a write, `session` holds the conversation counts not yet written. */
  decisionState(session?: ProjectionSession): DecisionState {
    return {
      memory: (id: MemoryId) => loadMemory(this.db, id),
      restatementOf: (key, scope, project, viewer) => findRestatement(this.db, key, scope, project, viewer),
      conversation: (origin) => (session ? session.conversation(origin) : loadConversation(this.db, origin))
    }
  }

  /** Runs `f` when the store closes. */
  whenClosed(f: () => void): void {
    this.closing.push(f)
  }

  close(): void {
    if (!this.db.open) return
    this.flushQueued()
    for (const f of this.closing.splice(0)) f()
    endReaderThread(this.db)
    this.db.close()
  }
}

interface QueuedWrite {
  readonly f: (tx: WriteTx) => Either.Either<unknown, unknown>
  readonly resolve: (result: Either.Either<unknown, unknown>) => void
  readonly reject: (error: unknown) => void
}

/** What `f` returned, or undefined when it threw. */
const attempt = <A>(f: () => A): A | undefined => {
  try {
    return f()
  } catch {
    return undefined
  }
}

/** Rolls a group back because one of its writes failed. */
class GroupFailed {}

class RollBack {
  constructor(readonly result: Either.Either<unknown, unknown>) {}
}
