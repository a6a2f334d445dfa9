/**
 * A synchronous PostgreSQL connection. The store's units of work (a decision under the write
 * lock, a ranking over one snapshot) read as they go, synchronously (ledger-reads.ts), and the
 * pure-JavaScript client `pg` only answers with promises. So the client runs on a worker
 * thread, and this thread posts each statement and sleeps on a shared word (Atomics.wait)
 * until the worker has posted the answer, which it then takes off the port at once
 * (receiveMessageOnPort). A statement costs one loopback round trip plus a few microseconds
 * of messaging; no native build, no libpq headers.
 *
 * Statements whose answer nobody reads (`run`: the log's and the projections' writes, a
 * transaction's BEGIN) are queued and sent in the same message as the next read or the commit,
 * so a write of ten rows and the read after it wait for one answer, not eleven. PostgreSQL runs
 * them in order; the first that fails aborts the transaction, and its error is the read's.
 *
 * The worker is only a statement runner, so its code is a string run by `eval` (sync-worker.ts):
 * the same from the sources, the CLI bundle or the SDK's compiled files. It loads `pg` from the
 * path resolved here.
 */
import { createRequire } from "node:module"
import type { MessagePort, Worker } from "node:worker_threads"
import { WORKER_SOURCE } from "./sync-worker.js"

/**
 * node:worker_threads, required by the first thread started rather than imported: loading it
 * costs a start about a twentieth of a bare node start, and most starts (every agent hook's)
 * start no thread.
 */
const threads = (): Threads => (loadedThreads ??= createRequire(import.meta.url)("node:worker_threads") as Threads)
type Threads = typeof import("node:worker_threads")
let loadedThreads: Threads | undefined

/**
 * How long a statement may take before its wait is given up: it only bounds a dead server. A
 * batch's wait starts again each time the worker says its statements are running (at least
 * every quarter of the wait), so a rebuild's long run of writes is never taken for one.
 */
const ANSWER_WAIT_MS = 120_000

/** What PostgreSQL said was wrong, with its SQLSTATE code (`23505` a unique violation, ...). */
export class PgError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly detail: string | undefined
  ) {
    super(message)
    this.name = "PgError"
  }
}

/** Statements sent in one message at most. */
const QUEUED_MAX = 1_000

/** Each answer names the request it answers (`id`); `done` says a batch's statement has run. */
type Answer = { readonly id: number } & (
  | { readonly done: true }
  | { readonly rows: ReadonlyArray<Record<string, unknown>>; readonly rowCount: number }
  | { readonly error: { readonly message: string; readonly code?: string; readonly detail?: string } }
)

export class SyncPg {
  private writes: Array<[string, ReadonlyArray<unknown>]> = []
  private closed = false
  private asked = 0
  private prepare = true
  private flushing: ReturnType<typeof setImmediate> | undefined
  /** Messages this connection has waited on: each is a trip to the worker and to the server. */
  roundTrips = 0

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly signal: Int32Array,
    private readonly answerWaitMs: number
  ) {}

  /**
   * Connects to `url`; throws PgError when the server cannot be reached or refuses. A statement's
   * answer is waited for `answerWaitMs` (tests give a short wait), then given up with a PgError.
   */
  static connect(url: string, driver = createRequire(import.meta.url).resolve("pg"), answerWaitMs = ANSWER_WAIT_MS): SyncPg {
    const { port1, port2 } = new (threads().MessageChannel)()
    const signal = new Int32Array(new SharedArrayBuffer(4))
    const worker = new (threads().Worker)(WORKER_SOURCE, {
      eval: true,
      workerData: { port: port2, signal: signal.buffer, driver, url, doneAfterMs: Math.floor(answerWaitMs / 4) },
      transferList: [port2]
    })
    // Neither keeps the process alive, even if `close` is never reached.
    worker.unref()
    port1.unref()
    const client = new SyncPg(worker, port1, signal, answerWaitMs)
    try {
      // Connecting is not a statement: it gets the full wait whatever `answerWaitMs` is.
      client.ask({ op: "connect" }, ANSWER_WAIT_MS)
    } catch (error) {
      void worker.terminate()
      throw error
    }
    return client
  }

  /** Rows of one statement (`$1`, `$2`... for parameters), after every queued write, sent with them. */
  query<Row = Record<string, unknown>>(sql: string, params: ReadonlyArray<unknown> = []): Row[] {
    return this.ask({ op: "query", sql, params, prepare: this.prepare, before: this.takeWrites() }).rows as Row[]
  }

  /** The first row, or undefined. */
  one<Row = Record<string, unknown>>(sql: string, params: ReadonlyArray<unknown> = []): Row | undefined {
    return this.query<Row>(sql, params)[0]
  }

  /** How many rows a statement changed, after every queued write, sent with them. */
  execute(sql: string, params: ReadonlyArray<unknown> = []): number {
    return this.ask({ op: "query", sql, params, prepare: this.prepare, before: this.takeWrites() }).rowCount
  }

  /**
   * Queues a statement whose answer is not read; it runs before the next read or `flush`, or
   * once QUEUED_MAX are waiting, so that one answer never waits on a whole rebuild's writes.
   */
  run(sql: string, params: ReadonlyArray<unknown> = []): void {
    this.writes.push([sql, params])
    if (this.writes.length >= QUEUED_MAX) this.flush()
  }

  /**
   * Queues a statement that must not wait long: it goes with the next statement, or at the next
   * turn of the event loop, whichever comes first. For a statement that cannot fail in a way
   * its caller could act on (a read-only transaction's COMMIT): an error at that turn is left
   * for the next statement of the connection to meet.
   */
  runSoon(sql: string, params: ReadonlyArray<unknown> = []): void {
    this.run(sql, params)
    if (this.flushing !== undefined) return
    this.flushing = setImmediate(() => {
      this.flushing = undefined
      try {
        this.flush()
      } catch {
        // Left for the next statement.
      }
    })
    this.flushing.unref()
  }

  /** Sends the queued statements and waits for them; throws the first one's error. */
  flush(): void {
    if (this.writes.length === 0) return
    this.ask({ op: "batch", batch: this.takeWrites(), prepare: this.prepare })
  }

  private takeWrites(): Array<[string, ReadonlyArray<unknown>]> {
    const batch = this.writes
    this.writes = []
    return batch
  }

  /**
   * Runs `f` with no statement prepared or reused from before. A statement used again is
   * prepared on the server, and a read as of a moment shadows the real tables with temporary
   * ones of the same names. PostgreSQL parses a prepared statement again when the schemas it
   * looks in change, as they do when a session's temporary schema appears; such reads still run
   * unprepared, so that their answers do not rest on that.
   */
  unprepared<A>(f: () => A): A {
    const before = this.prepare
    this.flush()
    this.prepare = false
    try {
      return f()
    } finally {
      this.prepare = before
    }
  }

  /** Drops queued statements (a transaction that rolls back never needed them). */
  discard(): void {
    this.writes = []
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.writes = []
    if (this.flushing !== undefined) clearImmediate(this.flushing)
    try {
      this.ask({ op: "close" })
    } catch {
      // The connection is gone either way.
    }
    void this.worker.terminate()
  }

  /**
   * Posts `message` and sleeps until its answer comes. A statement whose wait was given up still
   * runs on, and its answer comes later, before the answers of the statements sent after it: it
   * is dropped by its id, never taken for theirs.
   */
  private ask(message: object, waitMs = this.answerWaitMs): { rows: ReadonlyArray<Record<string, unknown>>; rowCount: number } {
    const id = ++this.asked
    this.roundTrips++
    let deadline = Date.now() + waitMs
    Atomics.store(this.signal, 0, 0)
    this.port.postMessage({ ...message, id })
    for (;;) {
      if (Atomics.wait(this.signal, 0, 0, Math.max(0, deadline - Date.now())) === "timed-out") {
        throw new PgError(`PostgreSQL did not answer within ${waitMs / 1000} s`, undefined, undefined)
      }
      // Lowered before the port is read: an answer posted after the read raises it again.
      Atomics.store(this.signal, 0, 0)
      for (let received = threads().receiveMessageOnPort(this.port); received !== undefined; received = threads().receiveMessageOnPort(this.port)) {
        const answer = received.message as Answer
        if (answer.id !== id) continue
        if ("done" in answer) {
          deadline = Date.now() + waitMs
          continue
        }
        if ("error" in answer) throw new PgError(answer.error.message, answer.error.code, answer.error.detail)
        return answer
      }
    }
  }
}
