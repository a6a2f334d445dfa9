/**
 * Reads on a thread of their own: a second, read-only connection to the store file, on a
 * worker thread, runs a statement while the asking thread goes on with other reads, so that
 * one search uses both cores (vector-search.ts sends it a nearest-neighbour search, the
 * costliest statement of a hybrid search, before the keyword half runs).
 *
 * One question at a time: `ask` posts it, `answer` blocks until its rows come (Atomics.wait,
 * as writer-thread.ts does). The thread reads the file as it is when the question arrives,
 * which may be a commit newer than the asker's snapshot, so it is asked only what may lag the log
 * (vectors, which readers join back to `memories` anyway). An error, a thread that stopped
 * answering or one that never opened answers undefined, and the asker runs the statement itself.
 *
 * The worker is a statement runner with no memledger logic, so its code is a string run by
 * `eval`, the same from the sources, the CLI bundle or the SDK's compiled files.
 */
import { createRequire } from "node:module"
import type { MessagePort, Worker } from "node:worker_threads"
import { nextMessage, startThread } from "./thread-messages.js"

/** Far beyond any one statement's time: it only bounds a thread that died. */
const ANSWER_WAIT_MS = 30_000

/** Statements to run, each `sql` with its `params`. */
export type Statements = ReadonlyArray<{ readonly sql: string; readonly params: ReadonlyArray<unknown> }>

export interface ReaderThreadOptions {
  /** Modules whose `load(db)` each connection calls (sqlite-vec), by resolved path. */
  readonly extensions: ReadonlyArray<string>
  readonly pragmas: ReadonlyArray<string>
}

export class ReaderThread {
  private asked = 0
  private pending: number | undefined
  private broken = false

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly signal: Int32Array
  ) {}

  /** Starts the thread and has it open `path` read-only; the opening is not waited for. */
  static open(path: string, options: ReaderThreadOptions, driver = createRequire(import.meta.url).resolve("better-sqlite3")): ReaderThread {
    const { worker, port, signal } = startThread(WORKER_SOURCE, driver)
    const thread = new ReaderThread(worker, port, signal)
    // A thread that ended while idle is asked nothing more (one that ends mid-question is found by the wait's bound).
    const ended = () => {
      thread.broken = true
    }
    worker.on("error", ended).on("exit", ended)
    port.postMessage({ op: "open", path, extensions: options.extensions, pragmas: options.pragmas })
    return thread
  }

  /** Posts statements (each `sql` run with its `params`, rows as arrays); false when the thread cannot take them. */
  ask(statements: Statements): boolean {
    if (this.broken || this.pending !== undefined) return false
    this.pending = ++this.asked
    this.port.postMessage({ op: "all", id: this.pending, statements })
    return true
  }

  /** The rows of each statement last asked, or undefined if the thread failed them (the caller runs them itself). */
  answer(): unknown[][][] | undefined {
    const id = this.pending
    if (id === undefined) return undefined
    this.pending = undefined
    const deadline = Date.now() + ANSWER_WAIT_MS
    for (;;) {
      const answer = nextMessage(this.port, this.signal, deadline) as { id: number; results?: unknown[][][]; error?: string } | undefined
      if (answer === undefined) {
        // A thread that stopped answering is asked nothing more.
        this.broken = true
        return undefined
      }
      // An answer to a question given up on earlier is passed over.
      if (answer.id !== id) continue
      if (answer.error !== undefined) this.broken = true
      return answer.results
    }
  }

  close(): void {
    this.broken = true
    this.port.close()
    void this.worker.terminate()
  }
}

const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads")
const port = workerData.port
const signal = new Int32Array(workerData.signal)
const statements = new Map()
let db, failed

const answer = (a) => {
  port.postMessage(a)
  Atomics.add(signal, 0, 1)
  Atomics.notify(signal, 0)
}

port.on("message", (m) => {
  if (m.op === "open") {
    try {
      const Database = require(workerData.driver)
      db = new Database(m.path, { readonly: true, fileMustExist: true })
      for (const p of m.pragmas) db.pragma(p)
      for (const e of m.extensions) require(e).load(db)
    } catch (e) {
      failed = (e && e.message) || String(e)
    }
    return
  }
  if (failed) return answer({ id: m.id, error: failed })
  try {
    const results = m.statements.map(({ sql, params }) => {
      let s = statements.get(sql)
      if (!s) statements.set(sql, (s = db.prepare(sql).raw(true)))
      return s.all(...params)
    })
    answer({ id: m.id, results })
  } catch (e) {
    answer({ id: m.id, error: (e && e.message) || String(e) })
  }
})
`
