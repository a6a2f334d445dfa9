/**
 * Nearest-neighbour searches on a thread of their own, once they are slow enough to be worth it.
 * A hybrid search's KNN reads every vector of the places it covers (sqlite-vec has no index:
 * about 30 ms for the 25,000 global memories of a 100,000-memory store), and its keyword half
 * is as long again; the two need nothing of each other, so the KNN is asked of a reader thread
 * (reader-thread.ts) before the keyword half runs and collected after it, on the other core.
 *
 * A connection's first KNN that takes longer than `SLOW_MS` starts its thread; a process that
 * searches once (a CLI command) never pays for one. The thread answers the same statement over
 * the same file, so the neighbours are the same as the asking thread would find, but for
 * vectors a sync filed in between, which readers may miss anyway (vectors lag the log).
 */
import { createRequire } from "node:module"
import { MMAP_BYTES, type Db } from "../database.js"
import { ReaderThread } from "../reader-thread.js"

/** A KNN faster than this stays where it is: posting it costs about 0.1 ms, starting a thread about 100. */
const SLOW_MS = 10

export interface NearestQuestion {
  readonly model: string
  readonly query: Float32Array
  readonly limit: number
  readonly places: ReadonlyArray<string>
}

interface Offload {
  readonly thread: ReaderThread
  asked: NearestQuestion | undefined
  /** Searches the thread answered. */
  answered: number
}

const offloads = new WeakMap<Db, Offload>()

/** Asks the connection's thread, if it has one, the statements of `question`. */
export const askNearest = (
  db: Db,
  question: NearestQuestion,
  statements: () => ReadonlyArray<{ readonly sql: string; readonly params: ReadonlyArray<unknown> }>
): void => {
  const offload = offloads.get(db)
  if (offload === undefined) return
  // A question asked and never collected (its search failed before the vector half) is dropped.
  if (offload.asked !== undefined) offload.thread.answer()
  offload.asked = offload.thread.ask(statements()) ? question : undefined
}

/** The rows of each statement of `question`, if the thread was asked exactly that; undefined otherwise. */
export const nearestAsked = (db: Db, question: NearestQuestion): unknown[][][] | undefined => {
  const offload = offloads.get(db)
  const asked = offload?.asked
  if (asked === undefined) return undefined
  offload!.asked = undefined
  const rows = offload!.thread.answer()
  if (rows === undefined || !sameQuestion(asked, question)) return undefined
  offload!.answered++
  return rows
}

/** Runs a KNN on this thread, and starts the connection's reader thread when it took long. */
export const timedNearest = <A>(db: Db, run: () => A): A => {
  const started = performance.now()
  const rows = run()
  if (performance.now() - started > SLOW_MS) startNearestThread(db)
  return rows
}

/** Gives a file's connection its reader thread, unless it has one. */
export const startNearestThread = (db: Db): void => {
  if (db.memory || offloads.has(db)) return
  const resolve = createRequire(import.meta.url).resolve
  const thread = ReaderThread.open(db.name, { extensions: [resolve("sqlite-vec")], pragmas: [`mmap_size = ${MMAP_BYTES}`] })
  offloads.set(db, { thread, asked: undefined, answered: 0 })
}

/** How many searches the connection's thread answered (undefined: it has none). */
export const nearestThreadAnswers = (db: Db): number | undefined => offloads.get(db)?.answered

/** Ends the connection's reader thread, if it started one; the connection is closing. */
export const endNearestThread = (db: Db): void => {
  offloads.get(db)?.thread.close()
  offloads.delete(db)
}

const sameQuestion = (a: NearestQuestion, b: NearestQuestion): boolean =>
  a.model === b.model && a.query === b.query && a.limit === b.limit && a.places.length === b.places.length && a.places.every((p, i) => p === b.places[i])
