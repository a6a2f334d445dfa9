/**
 * Nearest-neighbour searches on the store's reader thread (nearest-thread.ts), on a real SQLite
 * file with sqlite-vec and a real worker thread: asked before and collected after other reads,
 * they give exactly the neighbours the asking thread finds itself; anything else asked of
 * `nearest` is answered on the asking thread.
 */
import { Effect } from "effect"
import { afterEach, expect, test } from "vitest"
import { l2Normalize } from "../../src/embeddings/normalize.js"
import type { DomainEvent } from "../../src/events/events.js"
import { endNearestThread, nearestThreadAnswers, startNearestThread } from "../../src/store/sqlite/projections/nearest-thread.js"
import { nearest, prefetchNearest } from "../../src/store/sqlite/projections/vector-search.js"
import { syncVectors } from "../../src/store/sqlite/projections/vector-sync.js"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { added } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { openTempStore } from "../support/temp-store.js"
import { bagOfWords, countingEmbedder } from "./fake-embeddings.js"

const WORDS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
const APP = "github.com/acme/app"
const PLACES = ["", APP]
const embedder = countingEmbedder()
const vector = (text: string) => l2Normalize(bagOfWords(text, 64))

let store: LedgerStore | undefined
afterEach(() => store?.close())

/** 30 memories, global and in two projects, with their vectors filed. */
const storeWithVectors = (): LedgerStore => {
  const opened = openTempStore()
  const events: DomainEvent[] = Array.from({ length: 30 }, (_, i) => {
    const project = [null, APP, "github.com/acme/api"][i % 3]!
    const text = `${WORDS[i % 8]} ${WORDS[(i * 3) % 8]} ${WORDS[(i * 5 + 1) % 8]} note ${i}`
    return added(memoryId(200 + i), text, project === null ? { scope: "global", project: null } : { scope: "project", project })
  })
  opened.writeOrThrow((tx) => tx.append(events.map((event, i) => ({ id: eventId(500 + i), recordedAt: "2025-01-01T00:00:00.000Z", origin: "cli", agent: "cli", event }))))
  Effect.runSync(syncVectors(opened.db, embedder))
  return (store = opened)
}

test("a search asked of the thread before other reads gives exactly the neighbours found without it", () => {
  const db = storeWithVectors().db
  const query = vector("alpha gamma zeta")
  const here = nearest(db, embedder.model, query, 12, PLACES)
  expect(nearestThreadAnswers(db)).toBeUndefined()

  startNearestThread(db)
  prefetchNearest(db, embedder.model, query, 12, PLACES)
  // Reads in between, on the asking thread, as the keyword half of a hybrid search does.
  expect((db.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n).toBe(30)
  const there = nearest(db, embedder.model, query, 12, PLACES)

  expect(nearestThreadAnswers(db)).toBe(1)
  expect(there).toEqual(here)
  expect(there.length).toBeGreaterThan(0)
})

test("only the very question asked is answered by the thread; another, or one never collected, is answered here", () => {
  const db = storeWithVectors().db
  startNearestThread(db)
  const query = vector("beta delta")

  prefetchNearest(db, embedder.model, query, 5, PLACES)
  expect(nearest(db, embedder.model, query, 6, PLACES)).toEqual(nearest(db, embedder.model, query, 6, PLACES))
  expect(nearestThreadAnswers(db)).toBe(0)

  // Asked, never collected, then another question: the second is the one answered.
  prefetchNearest(db, embedder.model, vector("eta"), 5, PLACES)
  prefetchNearest(db, embedder.model, query, 5, PLACES)
  const there = nearest(db, embedder.model, query, 5, PLACES)
  expect(nearestThreadAnswers(db)).toBe(1)
  endNearestThread(db)
  expect(there).toEqual(nearest(db, embedder.model, query, 5, PLACES))
})

test("a vector filed after the thread opened is found by it, as by the asking thread", () => {
  const opened = storeWithVectors()
  const db = opened.db
  startNearestThread(db)
  const query = vector("theta theta theta")
  prefetchNearest(db, embedder.model, query, 3, PLACES)
  nearest(db, embedder.model, query, 3, PLACES)

  opened.writeOrThrow((tx) =>
    tx.append([{ id: eventId(900), recordedAt: "2025-01-02T00:00:00.000Z", origin: "cli", agent: "cli", event: added(memoryId(900), "theta theta theta", { scope: "global", project: null }) }])
  )
  Effect.runSync(syncVectors(db, embedder))
  prefetchNearest(db, embedder.model, query, 3, PLACES)
  const there = nearest(db, embedder.model, query, 3, PLACES)
  expect(nearestThreadAnswers(db)).toBe(2)
  expect(there[0]!.cosine).toBeCloseTo(1, 5)
  expect(there).toEqual(nearest(db, embedder.model, query, 3, PLACES))
})

test("closing the store ends its thread", () => {
  const opened = storeWithVectors()
  startNearestThread(opened.db)
  expect(nearestThreadAnswers(opened.db)).toBe(0)
  opened.close()
  expect(nearestThreadAnswers(opened.db)).toBeUndefined()
})
