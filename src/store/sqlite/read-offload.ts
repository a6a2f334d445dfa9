/**
 * Statements of a search moved to a reader thread (reader-thread.ts), once they are slow enough
 * to be worth it, so that a search uses both cores. Two halves of a search need nothing of each
 * other: a hybrid search's nearest-neighbour statement (sqlite-vec reads every vector of the
 * places searched: 70% of a hybrid ranking at 100,000 memories, profiled with bench/search) and
 * its keyword half; and, within the keyword half, the learned cues' full-text statement and the
 * memories' own. The second of each pair is asked of the thread before the first runs here, and
 * collected after it.
 *
 * A connection's first offloadable statement that takes longer than `SLOW_MS` here starts its
 * thread; a process that searches once (a CLI command) never pays for one. One question at a
 * time: a question asked while another waits runs here. The thread reads the same file, as it
 * is when the question arrives: the asker's snapshot or a commit newer, so it is asked only what
 * a search may read a moment late (vectors, which lag the log anyway; cues, which are joined
 * back to the asker's rows, so one newer than its snapshot finds no memory).
 */
import { createRequire } from "node:module"
import { MMAP_BYTES, type Db } from "./database.js"
import { ReaderThread, type Statements } from "./reader-thread.js"

/** Statements faster than this stay where they are: a store that small gains less than a thread costs to start and to ask. */
const SLOW_MS = 10

/** A question left uncollected this long was given up on (its search failed midway): the next one drops it. */
const GIVEN_UP_MS = 5_000

/** What the thread was asked: the same `key` and the same `vector` object ask the same statements. */
export interface Question {
  readonly key: string
  readonly vector?: Float32Array
}

interface Offload {
  readonly thread: ReaderThread
  asked: { readonly question: Question; readonly at: number } | undefined
  /** Questions the thread answered. */
  answered: number
}

const offloads = new WeakMap<Db, Offload>()

/** Asks the connection's thread, if it has one and is free, the statements of `question`. */
export const askThread = (db: Db, question: Question, statements: () => Statements): void => {
  const offload = offloads.get(db)
  if (offload === undefined) return
  if (offload.asked !== undefined) {
    if (performance.now() - offload.asked.at < GIVEN_UP_MS) return
    offload.thread.answer()
    offload.asked = undefined
  }
  if (offload.thread.ask(statements())) offload.asked = { question, at: performance.now() }
}

/** Each statement's rows (as arrays), if the thread was asked exactly `question`; undefined: run them here. */
export const collectAnswer = (db: Db, question: Question): unknown[][][] | undefined => {
  const offload = offloads.get(db)
  const asked = offload?.asked?.question
  if (asked === undefined || asked.key !== question.key || asked.vector !== question.vector) return undefined
  offload!.asked = undefined
  const rows = offload!.thread.answer()
  if (rows !== undefined) offload!.answered++
  return rows
}

/** Runs offloadable statements here, and starts the connection's reader thread when they took long. */
export const timedHere = <A>(db: Db, run: () => A): A => {
  const started = performance.now()
  const rows = run()
  if (performance.now() - started > SLOW_MS) startReaderThread(db)
  return rows
}

/** Gives a file's connection its reader thread, unless it has one. */
export const startReaderThread = (db: Db): void => {
  if (db.memory || offloads.has(db)) return
  const resolve = createRequire(import.meta.url).resolve
  const thread = ReaderThread.open(db.name, { extensions: [resolve("sqlite-vec")], pragmas: [`mmap_size = ${MMAP_BYTES}`] })
  offloads.set(db, { thread, asked: undefined, answered: 0 })
}

/** How many questions the connection's thread answered (undefined: it has none). */
export const readerThreadAnswers = (db: Db): number | undefined => offloads.get(db)?.answered

/** Ends the connection's reader thread, if it started one; the connection is closing. */
export const endReaderThread = (db: Db): void => {
  offloads.get(db)?.thread.close()
  offloads.delete(db)
}
