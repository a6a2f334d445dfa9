/**
 * WAL checkpoints on a thread of their own, for a bulk import. A connection that commits past
 * `wal_autocheckpoint` copies the WAL back into the database file itself, inside its commit;
 * for an import that copy was about a tenth of its time. Here the importing connection's automatic
 * checkpoints are off while a second connection, on a worker thread, runs a PASSIVE checkpoint
 * after each of its commits: SQLite lets a checkpoint run beside a writer (it copies only
 * committed frames), so the copying moves to the second core.
 *
 * A checkpoint changes no data, so nothing the import decides depends on it: if one fails,
 * its frames stay in the WAL for the next. The worker is only a connection that checkpoints, with
 * no memledger logic, so its code is a string run by `eval`, the same from the sources, the CLI
 * bundle or the SDK's compiled files; it loads better-sqlite3 from the path resolved here.
 */
import { createRequire } from "node:module"
import type { MessagePort, Worker } from "node:worker_threads"
import type { Db } from "./database.js"

/**
 * node:worker_threads, required by the first thread started rather than imported: loading it
 * costs a start about a twentieth of a bare node start, and most starts (every agent hook's)
 * start no thread.
 */
const threads = (): Threads => (loadedThreads ??= createRequire(import.meta.url)("node:worker_threads") as Threads)
type Threads = typeof import("node:worker_threads")
let loadedThreads: Threads | undefined

/**
 * How long `stop` waits for the thread's last checkpoint and its close: far longer than a
 * checkpoint of the WAL an import leaves takes (well under a second for 40 MiB), so it only
 * bounds a thread that died; the import then goes on without it.
 */
const STOP_WAIT_MS = 30_000

export class CheckpointThread {
  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly signal: Int32Array
  ) {}

  /**
   * Starts the thread, with its own connection to the file `db` has open; undefined if no
   * thread could be started (the import then checkpoints as any writer does).
   */
  static start(db: Db, driver = createRequire(import.meta.url).resolve("better-sqlite3")): CheckpointThread | undefined {
    const { port1, port2 } = new (threads().MessageChannel)()
    const signal = new Int32Array(new SharedArrayBuffer(4))
    let worker: Worker
    try {
      worker = new (threads().Worker)(WORKER_SOURCE, {
        eval: true,
        workerData: { port: port2, signal: signal.buffer, driver, path: db.name },
        transferList: [port2]
      })
    } catch {
      port1.close()
      return undefined
    }
    // Neither keeps the process alive, even if `stop` is never reached; `stop` ends both.
    worker.unref()
    port1.unref()
    return new CheckpointThread(worker, port1, signal)
  }

  /** Asks for a checkpoint of everything committed so far; returns at once. */
  request(): void {
    this.port.postMessage("checkpoint")
  }

  /**
   * Waits (at most STOP_WAIT_MS) for the checkpoints asked for, then closes the thread's
   * connection and ends it. False when the thread never answered and was ended unasked.
   */
  stop(): boolean {
    this.port.postMessage("close")
    const deadline = Date.now() + STOP_WAIT_MS
    let answered = false
    for (;;) {
      // The counter is read before looking, so an answer that lands after the look wakes the wait.
      const seen = Atomics.load(this.signal, 0)
      answered = threads().receiveMessageOnPort(this.port) !== undefined
      const left = deadline - Date.now()
      if (answered || left <= 0) break
      Atomics.wait(this.signal, 0, seen, left)
    }
    this.port.close()
    void this.worker.terminate()
    return answered
  }
}

/** The worker: a checkpoint per "checkpoint"; on "close", closes its connection and answers. */
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads")
const port = workerData.port
const signal = new Int32Array(workerData.signal)
let db
try {
  const Database = require(workerData.driver)
  db = new Database(workerData.path, { fileMustExist: true })
} catch {
  // Without a connection there is nothing to checkpoint; the WAL keeps its frames for later.
}
port.on("message", (m) => {
  try {
    if (m === "checkpoint" && db) db.pragma("wal_checkpoint(PASSIVE)")
    if (m === "close" && db) db.close()
  } catch {
    // A failed checkpoint leaves its frames in the WAL, for the next one.
  }
  if (m === "close") {
    port.postMessage("closed")
    Atomics.add(signal, 0, 1)
    Atomics.notify(signal, 0)
  }
})
`
