/**
 * A bulk import's writes on a thread of their own (see batch-writer.ts for the calls): a second
 * connection to the store file, on a worker thread, inserts one batch's rows and commits it
 * while the importing thread decides the next batch, so that the two halves of an import
 * (JavaScript per line, SQLite per row) use both cores.
 *
 * Only `settle` and `close` wait; the rest post messages, rows a chunk at a time. The
 * thread answers each batch once, in order: committed, stale, or the SQLite error that failed
 * it (name and code kept, so `storeErrorOf` reads it as it reads the importing connection's).
 *
 * The worker is only a statement runner, with no memledger logic beyond `endsAt`, so its code
 * is a string run by `eval`: the same from the sources, the CLI bundle or the SDK's compiled
 * files. It loads better-sqlite3 from the path resolved here.
 */
import { createRequire } from "node:module"
import type { MessagePort, Worker } from "node:worker_threads"
import { LAST_EVENT_SQL } from "./event-log.js"
import { endsAt, type BatchOutcome, type BatchWriter } from "./batch-writer.js"
import { BUSY_TIMEOUT_MS, MMAP_BYTES, WRITE_PRAGMAS } from "./database.js"
import { type LogHead } from "../../events/log.js"
import { nextMessage, startThread } from "./thread-messages.js"

/** Rows queued before they are posted: enough to spread a message's cost, few enough to start the thread early. */
const CHUNK_ROWS = 1_000

/**
 * How long a wait for the thread may last: far beyond a batch's commit, or the 15 s a BEGIN
 * waits for another writer's lock, so it only bounds a thread that died.
 */
const ANSWER_WAIT_MS = 120_000

type Answer =
  | { readonly outcome: BatchOutcome | "open" | "closed" }
  | { readonly error: { readonly name: string; readonly message: string; readonly code?: string } }

export class WriterThread implements BatchWriter {
  private readonly sqlIds = new Map<string, number>()
  private newSql: Array<[number, string]> = []
  private ops: unknown[] = []
  private queued = 0
  /** Whether the answer to the opening has been read (see `open`). */
  private opened = false

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly signal: Int32Array
  ) {}

  /**
   * Starts the thread and has it open `path`. Neither is waited for: the thread's answer to the
   * opening is read before the first batch's (`settle`), so that starting it (about 0.1 s,
   * mostly loading SQLite) overlaps deciding that batch; if the file could not be opened, that
   * `settle` throws SQLite's error.
   */
  static open(path: string, driver = createRequire(import.meta.url).resolve("better-sqlite3")): WriterThread {
    // It does not keep the process alive, even if `close` is never reached.
    const { worker, port, signal } = startThread(WORKER_SOURCE, driver)
    const thread = new WriterThread(worker, port, signal)
    // The importing connection checkpoints for both (LedgerStore.withCheckpointThread).
    const pragmas = [`busy_timeout = ${BUSY_TIMEOUT_MS}`, ...WRITE_PRAGMAS, `mmap_size = ${MMAP_BYTES}`, "wal_autocheckpoint = 0"]
    thread.post({ op: "open", path, pragmas, endSql: LAST_EVENT_SQL })
    return thread
  }

  readonly run = (sql: string, params: ReadonlyArray<unknown>): void => {
    let id = this.sqlIds.get(sql)
    if (id === undefined) {
      id = this.sqlIds.size
      this.sqlIds.set(sql, id)
      this.newSql.push([id, sql])
    }
    this.ops.push(id, params)
    if (++this.queued >= CHUNK_ROWS) this.flush()
  }

  begin(head: LogHead): void {
    this.post({ op: "begin", seq: head.seq, hash: head.hash })
  }

  commit(): void {
    this.flush()
    this.post({ op: "commit" })
  }

  rollback(): void {
    this.dropQueued()
    this.post({ op: "rollback" })
  }

  settle(): BatchOutcome {
    const answer = this.answer()
    if (answer === "committed" || answer === "stale") return answer
    throw new Error(`bulk import: the writer thread answered ${answer} for a batch`)
  }

  restart(): void {
    this.dropQueued()
    this.post({ op: "restart" })
  }

  close(): void {
    try {
      this.dropQueued()
      this.post({ op: "close" })
      // Answers left for batches that were never settled (an import that failed) come first.
      while (this.answerOrError() !== "closed");
    } catch {
      // A thread that stopped answering is ended below all the same; the import has already
      // failed or finished, and this must not hide which.
    } finally {
      this.end()
    }
  }

  private flush(): void {
    if (this.queued === 0) return
    this.post({ op: "run", sql: this.newSql, ops: this.ops })
    this.newSql = []
    this.ops = []
    this.queued = 0
  }

  private dropQueued(): void {
    this.ops = []
    this.queued = 0
    // Statements named in the dropped rows are still sent, so that ids stay the same on both sides.
    if (this.newSql.length > 0) this.post({ op: "run", sql: this.newSql, ops: [] })
    this.newSql = []
  }

  private post(message: object): void {
    this.port.postMessage(message)
  }

  private answer(): string {
    // The answer to the opening comes first (see `open`): its error is the first batch's.
    if (!this.opened) {
      this.opened = true
      outcomeOf(this.next())
    }
    return outcomeOf(this.next())
  }

  /** The next answer's outcome, or "error" for an error (which `close` does not rethrow). */
  private answerOrError(): string {
    const answer = this.next()
    return "error" in answer ? "error" : answer.outcome
  }

  /** Blocks until the thread's next answer (at most ANSWER_WAIT_MS). */
  private next(): Answer {
    const answer = nextMessage(this.port, this.signal, Date.now() + ANSWER_WAIT_MS) as Answer | undefined
    if (answer === undefined) throw new Error("bulk import: the writer thread stopped answering")
    return answer
  }

  private end(): void {
    this.port.close()
    void this.worker.terminate()
  }
}

/** An answer's outcome; an error answered is thrown as the thread's error. */
const outcomeOf = (answer: Answer): string => {
  if ("error" in answer) throw Object.assign(new Error(answer.error.message), answer.error)
  return answer.outcome
}

/**
 * The worker. After a stale or failed batch it drops everything up to "restart": the batches
 * behind it were decided on it. Statements are prepared even then, so ids stay in step.
 */
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads")
const port = workerData.port
const signal = new Int32Array(workerData.signal)
const statements = new Map()
let db, endSql, failure
let dropping = false

const answer = (a) => {
  port.postMessage(a)
  Atomics.add(signal, 0, 1)
  Atomics.notify(signal, 0)
}
const errorOf = (e) => ({ name: (e && e.name) || "Error", message: (e && e.message) || String(e), code: e && e.code })
const rollBack = () => { if (db && db.inTransaction) db.exec("ROLLBACK") }
const drop = (a) => {
  try { rollBack() } catch {}
  dropping = true
  failure = undefined
  answer(a)
}
const endsAt = ${endsAt.toString()}

const handle = (m) => {
  switch (m.op) {
    case "open": {
      const Database = require(workerData.driver)
      db = new Database(m.path, { fileMustExist: true })
      for (const p of m.pragmas) db.pragma(p)
      endSql = db.prepare(m.endSql)
      return answer({ outcome: "open" })
    }
    case "begin":
      if (dropping) return
      failure = undefined
      db.exec("BEGIN IMMEDIATE")
      if (!endsAt(endSql.get(), m)) drop({ outcome: "stale" })
      return
    case "run":
      for (const [id, sql] of m.sql) statements.set(id, db.prepare(sql))
      if (dropping || failure) return
      try {
        for (let i = 0; i < m.ops.length; i += 2) statements.get(m.ops[i]).run(m.ops[i + 1])
      } catch (e) {
        // Answered at the commit, which the importing thread waits for.
        failure = errorOf(e)
      }
      return
    case "commit":
      if (dropping) return
      if (failure) return drop({ error: failure })
      db.exec("COMMIT")
      return answer({ outcome: "committed" })
    case "rollback":
      failure = undefined
      return rollBack()
    case "restart":
      dropping = false
      return
    case "close":
      try { rollBack(); if (db) db.close() } catch {}
      return answer({ outcome: "closed" })
  }
}

port.on("message", (m) => {
  // A failed opening was answered; the batches after it are left to the importing thread's close.
  if (!db && m.op !== "open" && m.op !== "close") return
  try {
    handle(m)
  } catch (e) {
    if (m.op === "open") answer({ error: errorOf(e) })
    else drop({ error: errorOf(e) })
  }
})
`
