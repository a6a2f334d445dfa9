/**
 * Runs the event store contract against the SQLite log (src/store/sqlite/event-log.ts) through
 * LedgerStore, plus what only the SQLite store adds: a rolled-back write leaves no projection.
 */
import { Either } from "effect"
import { expect, test } from "vitest"
import { MemoryNotFound } from "../../src/domain/errors.js"
import { readEvents } from "../../src/store/sqlite/event-log.js"
import type { LedgerStore, WriteTx } from "../../src/store/sqlite/ledger-store.js"
import { added } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { openTempStore } from "../support/temp-store.js"
import { eventLogContract, type EventLogUnderTest } from "./event-log.contract.js"
import { type NewEvent } from "../../src/events/log.js"

const sqliteLog = (store: LedgerStore): EventLogUnderTest => ({
  write: <A>(f: (append: WriteTx["append"]) => A): A => store.writeOrThrow((tx) => f(tx.append)),
  read: (filter) => store.read((db) => [...readEvents(db, filter)]),
  tamper: {
    setPayload: (seq, payload) => void store.db.prepare("UPDATE events SET payload = ? WHERE seq = ?").run(payload, seq),
    setColumn: (seq, column, value) => void store.db.prepare(`UPDATE events SET ${column} = ? WHERE seq = ?`).run(value, seq),
    remove: (seq) => void store.db.prepare("DELETE FROM events WHERE seq = ?").run(seq)
  },
  close: () => store.close()
})

eventLogContract("SQLite through LedgerStore", () => sqliteLog(openTempStore()))

const first: NewEvent = { id: eventId(1), recordedAt: "2025-01-01T00:00:00.000Z", origin: "cli", agent: "cli", event: added(memoryId(1), "a") }
const counts = (store: LedgerStore) =>
  ["events", "event_memories", "memories", "evidence", "conversations"].map(
    (table) => (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
  )

test("a write transaction that throws leaves no projection row behind either", () => {
  const store = openTempStore()
  expect(() =>
    store.writeOrThrow((tx) => {
      tx.append([first])
      // The event, its memory link and the memory row exist inside the transaction...
      expect(counts(store).slice(0, 3)).toEqual([1, 1, 1])
      throw new Error("abort")
    })
  ).toThrow("abort")
  // ...and none of it, nor any projection row, outlives the rollback.
  expect(counts(store)).toEqual([0, 0, 0, 0, 0])
})

test("a write that decides a domain error (a Left) keeps nothing it appended", () => {
  const store = openTempStore()
  const result = store.write((tx) => {
    tx.append([first])
    return Either.left(new MemoryNotFound({ id: "x" }))
  })
  expect(Either.isLeft(result)).toBe(true)
  expect(counts(store)).toEqual([0, 0, 0, 0, 0])
})
