/**
 * What the store's worker threads (writer-thread.ts, reader-thread.ts) share on the asking
 * side: loading node:worker_threads, and blocking until a thread's next answer.
 */
import { createRequire } from "node:module"
import type { MessagePort } from "node:worker_threads"

/**
 * node:worker_threads, required by the first thread started rather than imported: loading it
 * costs a start about a twentieth of a bare node start, and most starts (every agent hook's)
 * start no thread.
 */
export const threads = (): Threads => (loadedThreads ??= createRequire(import.meta.url)("node:worker_threads") as Threads)
export type Threads = typeof import("node:worker_threads")
let loadedThreads: Threads | undefined

/**
 * Blocks until the next message on `port`, whose thread adds 1 to `signal` and notifies after
 * each one it posts; undefined when none came by `deadline` (a time from Date.now()).
 */
export const nextMessage = (port: MessagePort, signal: Int32Array, deadline: number): unknown => {
  for (;;) {
    // The counter is read before looking, so an answer that lands after the look wakes the wait.
    const seen = Atomics.load(signal, 0)
    const received = threads().receiveMessageOnPort(port)
    if (received !== undefined) return received.message
    const left = deadline - Date.now()
    if (left <= 0) return undefined
    Atomics.wait(signal, 0, seen, left)
  }
}

/** A thread running `source`, and the asking side of its port and answer counter. */
export interface StartedThread {
  readonly worker: import("node:worker_threads").Worker
  readonly port: MessagePort
  readonly signal: Int32Array
}

/**
 * Starts a thread that runs `source` (code as a string, evaluated, so the same from the sources
 * and the bundles), handing it its port, its answer counter and `driver`, the path it loads
 * better-sqlite3 from. Neither the thread nor the port keeps the process alive.
 */
export const startThread = (source: string, driver: string): StartedThread => {
  const { port1, port2 } = new (threads().MessageChannel)()
  const signal = new Int32Array(new SharedArrayBuffer(4))
  const worker = new (threads().Worker)(source, { eval: true, workerData: { port: port2, signal: signal.buffer, driver }, transferList: [port2] })
  worker.unref()
  port1.unref()
  return { worker, port: port1, signal }
}
