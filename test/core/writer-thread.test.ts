/**
 * The writer thread's opening (src/store/sqlite/writer-thread.ts) is not waited for, so that it
 * overlaps deciding the first batch; a file or driver it cannot open must still fail that
 * batch, with the thread's own error, and let the thread close.
 */
import { join } from "node:path"
import { expect, test } from "vitest"
import { WriterThread } from "../../src/store/sqlite/writer-thread.js"
import { tempDir } from "../support/cli.js"
import { EMPTY_LOG } from "../../src/events/log.js"

/** A batch of one row, committed, and its outcome read. */
const writeOneBatch = (thread: WriterThread) => {
  thread.begin(EMPTY_LOG)
  thread.run("CREATE TABLE t (x)", [])
  thread.commit()
  return thread.settle()
}

test("a file the thread cannot open fails the first batch with SQLite's error", () => {
  const thread = WriterThread.open(join(tempDir(), "no-such.db"))
  try {
    expect(() => writeOneBatch(thread)).toThrow(expect.objectContaining({ code: "SQLITE_CANTOPEN" }))
  } finally {
    thread.close()
  }
})

test("a driver the thread cannot load fails the first batch with the loader's error", () => {
  const thread = WriterThread.open(join(tempDir(), "no-such.db"), join(tempDir(), "no-driver.js"))
  try {
    expect(() => writeOneBatch(thread)).toThrow(/Cannot find module/)
  } finally {
    thread.close()
  }
})
