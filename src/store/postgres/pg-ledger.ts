/**
 * The unit of work over one PostgreSQL database, as LedgerStore is over a SQLite file: a read
 * runs in one REPEATABLE READ transaction (one snapshot); a write takes the store's advisory
 * lock first (pg_advisory_xact_lock), so writes from any number of processes and servers run
 * one at a time, each deciding on the state the last one committed, and the log's numbering
 * and chain stay gap-free. Appends and their projections commit together or not at all.
 */
import { Either } from "effect"
import type { LedgerConfig } from "../../config.js"
import type { DecisionState } from "../../commands/state.js"
import type { StoredEvent } from "../../events/events.js"
import { EMPTY_LOG, type LogHead, type RawEvent } from "../../events/log.js"
import { openProjectionSession } from "../../projections/projector.js"
import { LogBroken } from "../errors.js"
import type { WriteUnit } from "../event-log.js"
import type { LedgerReads } from "../ledger-reads.js"
import { rowToConversation, type ConversationRow } from "../projection-rows.js"
import { appendEvents, appendRawAfter } from "./event-log.js"
import { findRestatement } from "./memory-reads.js"
import { loadConversation, loadMemory, pgProjectionTables } from "./projections.js"
import { pgReads } from "./pg-reads.js"
import { ReadMemo } from "./read-memo.js"
import { NOTICE_CHANNEL, WRITE_LOCK } from "./schema.js"
import type { SyncPg } from "./sync-client.js"
import type { VectorSupport } from "./vector-support.js"

export interface PgWriteTx extends WriteUnit {
  readonly db: SyncPg
  readonly appendRaw: (rows: ReadonlyArray<RawEvent>) => StoredEvent[]
  /** Appends without projecting (a replay, which rebuilds once at the end). */
  readonly appendLogOnly: (rows: ReadonlyArray<RawEvent>) => StoredEvent[]
}

export class PgLedger {
  private inTransaction = false
  readonly reads: LedgerReads
  private readonly memo = new ReadMemo()
  /**
   * The conversation the last write appended for. A process mostly writes for one (an agent's
   * MCP server, a search's record), so a write reads that conversation's row with the log's
   * head, in the statement it waits for anyway, rather than in one of its own when projecting.
   */
  private lastOrigin: string | null = null

  constructor(
    readonly db: SyncPg,
    readonly location: string,
    readonly config: LedgerConfig,
    /** Whether this database keeps the embedder's vectors, decided when it was opened. */
    readonly vectors: VectorSupport
  ) {
    this.reads = pgReads(db, vectors.kept, this.memo)
  }

  /** Runs `f` under the write lock; a Left or a throw rolls back everything it appended. */
  write<A, E>(f: (tx: PgWriteTx) => Either.Either<A, E>): Either.Either<A, E> {
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

  writeOrThrow<A>(f: (tx: PgWriteTx) => A): A {
    if (this.inTransaction) throw new Error("a write cannot run inside another unit of work")
    // The lock first, in a statement of its own: a statement reads the snapshot taken when it
    // began, so a head read in the statement that waited for the lock would be the head from
    // before the wait, and two servers would number their appends alike. It is queued with the
    // BEGIN, one text of two statements, and sent with the head read.
    const written = this.transaction(`BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK})`, () => {
      const expected = this.lastOrigin
      const start = this.db.one<{
        broken: { broken_at: number; reason: string; found_at: string } | null
        head: LogHead | null
        conversation: ConversationRow | null
      }>(
        `SELECT (SELECT json_build_object('broken_at', broken_at, 'reason', reason, 'found_at', found_at) FROM chain_break WHERE id = 1) AS broken,
                (SELECT json_build_object('seq', seq, 'hash', hash) FROM events ORDER BY seq DESC LIMIT 1) AS head,
                (SELECT row_to_json(c) FROM conversations c WHERE c.origin = $1) AS conversation`,
        [expected]
      )!
      if (start.broken !== null) {
        throw new LogBroken({ path: this.location, brokenAt: start.broken.broken_at, reason: start.broken.reason, foundAt: start.broken.found_at })
      }
      let head: LogHead = start.head ?? EMPTY_LOG
      const tables = pgProjectionTables(this.db, this.config)
      // The row read with the head stands until this unit writes conversations: the session
      // writes them only when it finishes, a rebuild (after appendLogOnly) at once.
      let readWithHead = expected
      const conversation = (origin: string) =>
        origin !== readWithHead ? tables.conversation(origin) : start.conversation === null ? undefined : rowToConversation(start.conversation)
      const session = openProjectionSession({ ...tables, conversation }, this.config)
      let appended = 0
      let origin: string | undefined
      const project = (stored: StoredEvent[]): StoredEvent[] => {
        head = stored.at(-1) ?? head
        origin = stored.at(-1)?.origin ?? origin
        session.apply(stored)
        appended += stored.length
        return stored
      }
      const result = f({
        db: this.db,
        reads: this.reads,
        state: this.decisionState(session.conversation),
        append: (events) => project(appendEvents(this.db, head, events)),
        appendRaw: (rows) => project(appendRawAfter(this.db, head, rows)),
        appendLogOnly: (rows) => {
          readWithHead = null
          const stored = appendRawAfter(this.db, head, rows)
          head = stored.at(-1) ?? head
          appended += stored.length
          return stored
        }
      })
      session.finish()
      // Delivered to every listener when (and only if) this transaction commits.
      if (appended > 0) this.db.run(`NOTIFY ${NOTICE_CHANNEL}`)
      return { result, origin }
    })
    if (written.origin !== undefined) this.lastOrigin = written.origin
    return written.result
  }

  /** Runs `f` on one snapshot (or in the transaction already open). */
  read<A>(f: (db: SyncPg) => A): A {
    if (this.inTransaction) return f(this.db)
    return this.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", () => this.memo.within(() => f(this.db)), true)
  }

  private transaction<A>(begin: string, f: () => A, readOnly = false): A {
    // Queued: it travels with the transaction's first statement rather than waiting for an answer of its own.
    this.db.run(begin)
    this.inTransaction = true
    try {
      const result = f()
      // A read-only transaction has nothing to make durable: its COMMIT goes with the next
      // statement (a search's record), or at the next turn of the event loop, so that no
      // snapshot is held while the process idles.
      // A write's COMMIT is queued, then sent: so it goes as one text with the NOTIFY before it.
      if (readOnly) this.db.runSoon("COMMIT")
      else {
        this.db.run("COMMIT")
        this.db.flush()
      }
      return result
    } catch (error) {
      this.db.discard()
      try {
        this.db.execute("ROLLBACK")
      } catch {
        // The connection is gone: the server rolled back for us.
      }
      throw error
    } finally {
      this.inTransaction = false
    }
  }

  decisionState(conversation = (origin: string) => loadConversation(this.db, origin)): DecisionState {
    return {
      memory: (id) => loadMemory(this.db, id),
      restatementOf: (key, scope, project, viewer) => findRestatement(this.db, key, scope, project, viewer),
      conversation
    }
  }

  close(): void {
    this.db.close()
  }
}

class RollBack {
  constructor(readonly result: Either.Either<unknown, unknown>) {}
}
