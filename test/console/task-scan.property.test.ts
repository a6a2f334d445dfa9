/**
 * Protects the scan behind the console's tasks (store/read-folds.ts `scanTasks`): however it
 * splits the log into batches, a page holds the first `limit` tasks named in the at most
 * `scanLimit` recalls and outcomes before `before`, each at its latest event, and says where the
 * next page goes on (null once the log's start was reached).
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { scanTasks } from "../../src/store/read-folds.js"

type Row = { readonly seq: number; readonly task: string | null }

/** The page read one event at a time, as the definition has it. */
const expected = (rows: ReadonlyArray<Row>, before: number | undefined, limit: number, scanLimit: number) => {
  const before_ = before ?? Number.MAX_SAFE_INTEGER
  const available = rows.filter((r) => r.seq < before_)
  const seen = new Map<string, number>()
  let cursor = before_
  for (const row of available.slice(0, scanLimit)) {
    cursor = row.seq
    if (row.task !== null && !seen.has(row.task)) seen.set(row.task, row.seq)
    if (seen.size === limit) return { tasks: [...seen].map(([task, lastSeq]) => ({ task, lastSeq })), next: cursor }
  }
  return { tasks: [...seen].map(([task, lastSeq]) => ({ task, lastSeq })), next: available.length < scanLimit ? null : cursor }
}

test("a page of tasks is the same whatever the batches the log is read in", () => {
  const logArb = fc.array(fc.option(fc.integer({ min: 1, max: 300 }), { nil: null, freq: 3 }), { maxLength: 6_000, size: "max" }).map((tasks) =>
    // Newest first, as the store's batches come.
    tasks.map((t, i) => ({ seq: tasks.length - i, task: t === null ? null : `task-${t}` }))
  )
  fc.assert(
    fc.property(logArb, fc.option(fc.integer({ min: 1, max: 6_001 }), { nil: undefined }), fc.integer({ min: 1, max: 100 }), fc.integer({ min: 1, max: 5_000 }), (rows, before, limit, scanLimit) => {
      const batch = (cursor: number, step: number) => rows.filter((r) => r.seq < cursor).slice(0, step)
      expect(scanTasks(batch, before, limit, scanLimit)).toEqual(expected(rows, before, limit, scanLimit))
    }),
    { numRuns: 200 }
  )
})
