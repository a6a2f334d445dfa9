/**
 * Runs the event-log contract against every store through its port, plus what the SQLite store
 * adds below the port: a rolled-back write leaves no projection row either.
 */
import { Either } from "effect"
import { expect, test } from "vitest"
import { MemoryNotFound } from "../../src/domain/errors.js"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { added } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { openTempStore } from "../support/temp-store.js"
import { eventLogContract } from "./event-log.contract.js"
import { eventLogOf, STORES } from "./stores.js"
import type { NewEvent } from "../../src/events/log.js"

for (const store of STORES) eventLogContract(store.name, async () => eventLogOf(await store.open()))

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
