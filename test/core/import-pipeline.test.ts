/**
 * The pipelined bulk import (src/store/sqlite/transfer/import-bulk.ts), with its batches written on a writer
 * thread and on the importing connection: a batch that another writer's commit made stale is
 * decided again on the store as it then is, and a write that fails leaves its whole batch out
 * and reaches the caller. Real store files, a second connection as the other writer.
 */
import { Either } from "effect"
import { expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { parseImport } from "../../src/commands/import-lines.js"
import { makeIdFactory } from "../../src/domain/ids.js"
import { rebuildProjections } from "../../src/store/sqlite/projections/rebuild.js"
import { importJsonl, importLineByLine } from "../../src/store/sqlite/transfer/import-memories.js"
import { verifyStore } from "../../src/store/sqlite/verify.js"
import { expectSameProjections, snapshot } from "../support/snapshot.js"
import { openStoreAt, openTempStore } from "../support/temp-store.js"

const NOW = Date.parse("2026-03-01T10:00:00.000Z")
const ACTOR = { origin: "import:file.jsonl", agent: "test" }
const WRITERS = [
  ["a writer thread", { writerThreadFrom: 0 }],
  ["the importing connection", { writerThreadFrom: Number.POSITIVE_INFINITY }]
] as const

const jsonl = (contents: ReadonlyArray<string>): string => contents.map((content) => JSON.stringify({ content, project: null })).join("\n")

const memoryCount = (db: { prepare: (sql: string) => { get: () => unknown } }): number =>
  (db.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n

test.each(WRITERS)("a batch another writer committed under is decided again (%s)", (_, writer) => {
  const store = openTempStore()
  const lines = Array.from({ length: 60 }, (_, i) => `Memory ${i} about the release checklist`)
  let batches = 0
  const other = openStoreAt(store.db.name)
  try {
    const report = importJsonl(store, jsonl(lines), ACTOR, NOW, () => makeIdFactory(), undefined, {
      batchSize: 10,
      bulkFrom: 0,
      ...writer,
      // As the fourth batch begins, another connection adds what its last line says: once that
      // line is decided on the store as it now is, it confirms the other writer's memory.
      onBatch: () => {
        if (++batches !== 4) return
        const added = importLineByLine(other, parsed(jsonl([lines[39]!])), { origin: "cli", agent: "other" }, NOW, makeIdFactory())
        expect(Either.isRight(added)).toBe(true)
      }
    })
    expect(Either.isRight(report) && report.right).toMatchObject({ imported: 59, confirmed: 1 })
    // Six batches of ten and the empty one that finds the end; the fourth and the fifth (decided
    // before the fourth came back stale) once more.
    expect(batches).toBe(9)
    expect(memoryCount(store.db)).toBe(60)
    const otherEvent = store.db.prepare("SELECT seq FROM events WHERE agent = 'other'").get() as { seq: number }
    // Between two batches: after the third (on the importing connection, which has committed
    // it by then; on a thread that has written it), or after the second (a thread that had not
    // yet begun the third, which then came back stale too: the same nine batches are decided).
    expect([21, 31]).toContain(otherEvent.seq)
    expect(verifyStore(store.db, DEFAULT_CONFIG, new Date().toISOString()).ok).toBe(true)
    const incremental = snapshot(store.db)
    rebuildProjections(store.db, DEFAULT_CONFIG)
    expectSameProjections(snapshot(store.db), incremental, ["memories", "evidence", "fts", "ftsOrphans", "ftsTotals", "conversations", "memoryCounts", "outcomeDays"])
  } finally {
    other.close()
  }
})

test.each(WRITERS)("a write that fails leaves its whole batch out and is thrown (%s)", (_, writer) => {
  const store = openTempStore()
  // A store that refuses one memory row: the 25th line's, in the third batch.
  store.db.exec(
    "CREATE TRIGGER refuse BEFORE INSERT ON memories WHEN NEW.content LIKE '%refused%' BEGIN SELECT RAISE(ABORT, 'row refused'); END"
  )
  const lines = Array.from({ length: 40 }, (_, i) => `Memory ${i} about the deploy${i === 24 ? " (refused)" : ""}`)
  expect(() => importJsonl(store, jsonl(lines), ACTOR, NOW, () => makeIdFactory(), undefined, { batchSize: 10, bulkFrom: 0, ...writer })).toThrow(
    /row refused/
  )
  store.db.exec("DROP TRIGGER refuse")
  // The first two batches, and nothing of the third or after.
  expect(memoryCount(store.db)).toBe(20)
  expect((store.db.prepare("SELECT max(seq) AS n FROM events").get() as { n: number }).n).toBe(20)
  expect(verifyStore(store.db, DEFAULT_CONFIG, new Date().toISOString()).ok).toBe(true)
  // The store takes writes again: the writer let go of its lock.
  const again = importJsonl(store, jsonl(lines.slice(20, 24)), ACTOR, NOW, () => makeIdFactory(), undefined, { batchSize: 10, bulkFrom: 0, ...writer })
  expect(Either.isRight(again) && again.right.imported).toBe(4)
})

const parsed = (text: string) => {
  const items = parseImport(text)
  if (Either.isLeft(items)) throw new Error(items.left.message)
  return items.right
}
