/**
 * Where a bulk import's batches are written: on the importing connection (LocalBatchWriter), or
 * on a thread of its own (writer-thread.ts), which writes one batch while the importing thread
 * decides the next. Both take the same calls in the same order and give the same outcomes.
 *
 * A batch is `begin(head)`, its rows (`run`), then `commit()` or `rollback()`. Its outcome is
 * read later, oldest first, by `settle()`: committed, or stale when the log no longer ended at
 * `head` once the writer held the write lock (another writer committed after the batch was
 * decided). After a stale batch the writer drops every batch sent behind it, since each was
 * decided on the one before, until `restart()`. A write that fails throws (from `run` on the
 * importing connection, from `settle` on a thread) and leaves nothing of its batch.
 */
import { lastEvent } from "./event-log.js"
import type { Db } from "./database.js"
import { writesOn, type Writes } from "./statements.js"
import { type LogHead } from "../../events/log.js"

export type BatchOutcome = "committed" | "stale"

export interface BatchWriter extends Writes {
  begin(head: LogHead): void
  commit(): void
  rollback(): void
  settle(): BatchOutcome
  restart(): void
  /** Rolls back whatever batch is open and lets go of the writer. */
  close(): void
}

/** Whether the log, whose last event is `last`, still ends where a batch was decided to follow on. */
export const endsAt = (last: LogHead | undefined, head: LogHead): boolean =>
  last === undefined ? head.seq === 0 : last.seq === head.seq && last.hash === head.hash

/** Batches written on the importing connection itself, each committed as soon as it ends. */
export class LocalBatchWriter implements BatchWriter {
  private readonly outcomes: BatchOutcome[] = []
  private dropping = false

  constructor(private readonly db: Db) {}

  readonly run = (sql: string, params: ReadonlyArray<unknown>): void => {
    if (!this.dropping) writesOn(this.db).run(sql, params)
  }

  begin(head: LogHead): void {
    if (this.dropping) return
    this.db.exec("BEGIN IMMEDIATE")
    if (endsAt(lastEvent(this.db), head)) return
    this.db.exec("ROLLBACK")
    this.dropping = true
    this.outcomes.push("stale")
  }

  commit(): void {
    if (this.dropping) return
    this.db.exec("COMMIT")
    this.outcomes.push("committed")
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec("ROLLBACK")
  }

  settle(): BatchOutcome {
    const outcome = this.outcomes.shift()
    if (outcome === undefined) throw new Error("bulk import: no batch left to settle")
    return outcome
  }

  restart(): void {
    this.dropping = false
  }

  close(): void {
    this.rollback()
  }
}
