/**
 * LedgerStore.writeSoon: writes queued in one turn of the event loop share one transaction,
 * each resolves only once it is stored, a failing one fails alone, and no other write and no
 * close can overtake a queued one.
 */
import { Either } from "effect"
import { expect, test } from "vitest"
import { MemoryNotFound } from "../../src/domain/errors.js"
import { readEvents } from "../../src/store/sqlite/event-log.js"
import type { LedgerStore, WriteTx } from "../../src/store/sqlite/ledger-store.js"
import { added } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { openStoreAt, openTempStore } from "../support/temp-store.js"
import { type NewEvent } from "../../src/events/log.js"

const event = (n: number): NewEvent => ({
  id: eventId(n),
  recordedAt: "2025-01-01T00:00:00.000Z",
  origin: "cli",
  agent: "cli",
  event: added(memoryId(n), `memory ${n}`)
})

const contents = (store: LedgerStore) =>
  store.read((db) => [...readEvents(db)].map((e) => (e.event?._tag === "MemoryAdded" ? e.event.content : e.type)))

/** A write that appends memory `n` and says which transaction it ran in. */
const appendOne = (n: number, seen: WriteTx[] = []) => (tx: WriteTx) => {
  seen.push(tx)
  tx.append([event(n)])
  return Either.right(n)
}

test("writes queued in one turn commit together, in the order queued, each resolving with its own result once stored", async () => {
  const store = openTempStore()
  const seen: WriteTx[] = []
  const pending = [1, 2, 3].map((n) => store.writeSoon(appendOne(n, seen)))
  // Nothing is written before the event loop turns...
  expect(contents(store)).toEqual([])
  const results = await Promise.all(pending)
  // ...then all three are, in one transaction.
  expect(results).toEqual([Either.right(1), Either.right(2), Either.right(3)])
  expect(contents(store)).toEqual(["memory 1", "memory 2", "memory 3"])
  expect(new Set(seen).size).toBe(1)
})

test("a queued write that decides a Left or throws fails alone: the others of its group are stored", async () => {
  const store = openTempStore()
  const ok = store.writeSoon(appendOne(1))
  const refused = store.writeSoon((tx) => {
    tx.append([event(2)])
    return Either.left(new MemoryNotFound({ id: "x" }))
  })
  const broken = store.writeSoon((tx) => {
    tx.append([event(3)])
    throw new Error("broken")
  })
  const alsoOk = store.writeSoon(appendOne(4))
  expect(await ok).toEqual(Either.right(1))
  expect(Either.isLeft(await refused)).toBe(true)
  await expect(broken).rejects.toThrow("broken")
  expect(await alsoOk).toEqual(Either.right(4))
  expect(contents(store)).toEqual(["memory 1", "memory 4"])
  expect(store.read((db) => [...readEvents(db)].map((e) => e.seq))).toEqual([1, 2])
})

test("a write made while writes are queued runs after them, so the log keeps the order they were asked for", async () => {
  const store = openTempStore()
  const queued = store.writeSoon(appendOne(1))
  store.write(appendOne(2))
  expect(contents(store)).toEqual(["memory 1", "memory 2"])
  expect(await queued).toEqual(Either.right(1))
})

test("closing the store stores what is queued first", async () => {
  const store = openTempStore()
  const queued = store.writeSoon(appendOne(1))
  store.close()
  expect(await queued).toEqual(Either.right(1))
  const reopened = openStoreAt(store.path)
  expect(contents(reopened)).toEqual(["memory 1"])
  reopened.close()
})

test("a queued write that ends the transaction under the others keeps them from running outside it", async () => {
  const store = openTempStore()
  const before = store.writeSoon(appendOne(1))
  let runs = 0
  const ending = store.writeSoon((tx) => {
    runs += 1
    // What SQLite does by itself on some errors (a full disk): the transaction is gone.
    if (runs === 1) tx.db.exec("ROLLBACK")
    throw new Error("the transaction ended")
  })
  const after = store.writeSoon(appendOne(3))
  expect(await before).toEqual(Either.right(1))
  await expect(ending).rejects.toThrow("the transaction ended")
  expect(await after).toEqual(Either.right(3))
  // Each stored once, in order: nothing ran in autocommit and then again alone.
  expect(contents(store)).toEqual(["memory 1", "memory 3"])
})
