/**
 * Statements on the store's reader thread (read-offload.ts), on a real SQLite file with
 * sqlite-vec and a real worker thread: a nearest-neighbour search and a learned-cue search,
 * asked before and collected after other reads, give exactly what the asking thread finds
 * itself; anything else is answered on the asking thread.
 */
import { Effect } from "effect"
import { afterEach, expect, test } from "vitest"
import { l2Normalize } from "../../src/embeddings/normalize.js"
import type { DomainEvent } from "../../src/events/events.js"
import { endReaderThread, readerThreadAnswers, startReaderThread } from "../../src/store/sqlite/read-offload.js"
import { nearest, prefetchNearest } from "../../src/store/sqlite/projections/vector-search.js"
import { syncVectors } from "../../src/store/sqlite/projections/vector-sync.js"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { keywordCandidates } from "../../src/store/sqlite/retrieval/keyword-matches.js"
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
  expect(readerThreadAnswers(db)).toBeUndefined()

  startReaderThread(db)
  prefetchNearest(db, embedder.model, query, 12, PLACES)
  // Reads in between, on the asking thread, as the keyword half of a hybrid search does.
  expect((db.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n).toBe(30)
  const there = nearest(db, embedder.model, query, 12, PLACES)

  expect(readerThreadAnswers(db)).toBe(1)
  expect(there).toEqual(here)
  expect(there.length).toBeGreaterThan(0)
})

test("only the very question asked is answered by the thread; one asked while another waits is answered here", () => {
  const db = storeWithVectors().db
  startReaderThread(db)
  const query = vector("beta delta")

  prefetchNearest(db, embedder.model, query, 5, PLACES)
  expect(nearest(db, embedder.model, query, 6, PLACES)).toEqual(nearest(db, embedder.model, query, 6, PLACES))
  expect(readerThreadAnswers(db)).toBe(0)
  // The question asked is still the thread's to answer.
  nearest(db, embedder.model, query, 5, PLACES)
  expect(readerThreadAnswers(db)).toBe(1)

  // A second question while the first waits: it runs here, and the first is still the thread's.
  const eta = vector("eta")
  prefetchNearest(db, embedder.model, eta, 5, PLACES)
  prefetchNearest(db, embedder.model, query, 5, PLACES)
  const here = nearest(db, embedder.model, query, 5, PLACES)
  expect(readerThreadAnswers(db)).toBe(1)
  const there = nearest(db, embedder.model, eta, 5, PLACES)
  expect(readerThreadAnswers(db)).toBe(2)
  endReaderThread(db)
  expect(here).toEqual(nearest(db, embedder.model, query, 5, PLACES))
  expect(there).toEqual(nearest(db, embedder.model, eta, 5, PLACES))
})

test("a vector filed after the thread opened is found by it, as by the asking thread", () => {
  const opened = storeWithVectors()
  const db = opened.db
  startReaderThread(db)
  const query = vector("theta theta theta")
  prefetchNearest(db, embedder.model, query, 3, PLACES)
  nearest(db, embedder.model, query, 3, PLACES)

  opened.writeOrThrow((tx) =>
    tx.append([{ id: eventId(900), recordedAt: "2025-01-02T00:00:00.000Z", origin: "cli", agent: "cli", event: added(memoryId(900), "theta theta theta", { scope: "global", project: null }) }])
  )
  Effect.runSync(syncVectors(db, embedder))
  prefetchNearest(db, embedder.model, query, 3, PLACES)
  const there = nearest(db, embedder.model, query, 3, PLACES)
  expect(readerThreadAnswers(db)).toBe(2)
  expect(there[0]!.cosine).toBeCloseTo(1, 5)
  expect(there).toEqual(nearest(db, embedder.model, query, 3, PLACES))
})

test("closing the store ends its thread", () => {
  const opened = storeWithVectors()
  startReaderThread(opened.db)
  expect(readerThreadAnswers(opened.db)).toBe(0)
  opened.close()
  expect(readerThreadAnswers(opened.db)).toBeUndefined()
})

test("a keyword search's learned-cue statement asked of the thread gives exactly the candidates found without it", () => {
  const opened = openTempStore()
  store = opened
  const session = "claude-code:session/s1"
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 5, 10, minute)).toISOString()
  const memories = Array.from({ length: 12 }, (_, i) => memoryId(300 + i))
  const events = [
    ...memories.map((id, i) => ({ origin: "cli", event: added(id, `${WORDS[i % 8]} note ${i} about handlers`, { scope: "project", project: APP }) as DomainEvent })),
    // Each memory learns a cue: a recall that missed it, then a worked outcome.
    ...memories.flatMap((id, i) => [
      { origin: session, event: { _tag: "MemoriesRecalled", query: `where should handlers get the current time ${WORDS[(i * 3) % 8]}`, memoryIds: [], project: APP } as DomainEvent },
      { origin: session, event: { _tag: "OutcomeRecorded", memoryIds: [id], outcome: "worked" } as DomainEvent }
    ])
  ]
  opened.writeOrThrow((tx) => tx.append(events.map((e, i) => ({ id: eventId(700 + i), recordedAt: at(i), origin: e.origin, agent: "test", event: e.event }))))
  const search = () => {
    const found = keywordCandidates(opened.db, ["current time for handlers"], { project: APP }, 10, DEFAULT_CONFIG, Date.UTC(2026, 0, 6))
    return [...found.values()].map((c) => [c.memory.id, c.keyword]).sort()
  }
  const here = search()
  expect(here.length).toBeGreaterThan(0)

  startReaderThread(opened.db)
  const there = search()
  expect(readerThreadAnswers(opened.db)).toBe(1)
  expect(there).toEqual(here)
})
