/**
 * `why --at` on SQLite folds the past straight from the file when the events up to the moment
 * are the log's first ones (time-travel.ts `foldedPrefix`), and replays them into a new store
 * otherwise. Over generated logs (adds, edits, outcomes that teach cues, recalls, forgetting and
 * restoring memories and conversations, supersedes, memories made private and shared again) and
 * random moments, every `why` answer read through the fast path is the replay's, byte for byte:
 * results, scores and their terms, the events behind them, what was left out and why, short ids.
 * A past store moved on to a later moment (`advancePrefix`) holds what one folded there does.
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { explainRun, runRanking } from "../../src/retrieval/ranking-run.js"
import { seenBy } from "../../src/services/seen-by.js"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { sqliteReads } from "../../src/store/sqlite/sqlite-reads.js"
import { diffSnapshots, snapshotProjections } from "../../src/store/sqlite/projections/snapshot.js"
import { advancePrefix, foldedPrefix, momentOf, PastStores, replayUntil } from "../../src/store/sqlite/time-travel.js"
import { appendScenario, eventsOf, scenarioArb } from "../support/ledger-arbitrary.js"
import { withTempStores } from "../support/temp-store.js"
import { added } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"

const ASKED = [["how to deploy"], ["Run the tests?", "node version"], ["which cache"], ["tabs or spaces", "how to deploy"]] as const
const PLACES = [null, "github.com/acme/app"] as const
const READERS = [null, "alice", "bob"] as const

/** Every answer `why` gives on a store, as the service computes it, as one string. */
const answers = (past: LedgerStore, nowMs: number): string =>
  JSON.stringify(
    READERS.flatMap((viewer) =>
      PLACES.flatMap((project) =>
        ASKED.map(([query, ...also]) => {
          const reads = seenBy(sqliteReads(past.db), viewer)
          const request = { query, also, project, limit: 5 }
          const run = runRanking(reads, request, nowMs, DEFAULT_CONFIG)
          return { mode: run.mode, ...explainRun(reads, request, run, nowMs, DEFAULT_CONFIG), head: reads.head() }
        })
      )
    )
  )

const replayed = (store: LedgerStore, untilIso: string, nowMs: number): string => {
  const past = replayUntil(store, untilIso)
  try {
    return answers(past, nowMs)
  } finally {
    past.close()
  }
}

test("why at any moment reads the same from the fast path as from a replay of the events up to then", () => {
  let prefixes = 0
  fc.assert(
    fc.property(scenarioArb(30, { privacy: true }), fc.nat(), fc.integer({ min: -90_000, max: 90_000 }), fc.boolean(), (scenario, pick, shiftMs, late) => {
      const events = eventsOf(scenario.steps)
      if (events.length === 0) return
      // A moment at, just before or just after an event's time: each event's own time is a boundary.
      const nowMs = Date.parse(events[pick % events.length]!.recordedAt) + (pick % 3 === 0 ? 0 : shiftMs)
      const untilIso = new Date(nowMs).toISOString()
      withTempStores((open) => {
        const store = open()
        appendScenario(store, scenario, events)
        const expected = replayed(store, untilIso, nowMs)
        const end = store.read((db) => momentOf(db, untilIso)).end
        if (end !== undefined) {
          prefixes++
          const past = foldedPrefix(store, end)
          try {
            expect(answers(past, nowMs)).toBe(expected)
          } finally {
            past.close()
          }
        }
        // Through the reader's own path, which picks the fast path or the replay, and keeps the
        // past it folded: then an event appended, recorded after the moment or (an import, a
        // skewed clock) before it, and the same moment asked about again.
        // Moving on over any share of the prefix, so that a later moment always takes that path.
        const stores = new PastStores(store, 1)
        try {
          expect(stores.read(untilIso, (past) => answers(past, nowMs))).toBe(expected)
          const recordedAt = new Date(nowMs + (late ? -60_000 : 60_000)).toISOString()
          store.writeOrThrow((tx) =>
            tx.append([{ id: eventId(900), recordedAt, origin: "cli", agent: "test", event: added(memoryId(900), "deploy the cache node with pnpm") }])
          )
          expect(stores.read(untilIso, (past) => answers(past, nowMs))).toBe(replayed(store, untilIso, nowMs))
          // Then a later moment: the kept store moved on to it.
          const laterMs = nowMs + 30 * 60_000
          const laterIso = new Date(laterMs).toISOString()
          expect(stores.read(laterIso, (past) => answers(past, laterMs))).toBe(replayed(store, laterIso, laterMs))
        } finally {
          stores.close()
        }
      })
    }),
    { numRuns: 80 }
  )
  // Generated logs mostly move forward in time: most moments take the fast path.
  expect(prefixes).toBeGreaterThan(20)
})

test("a past store moved on to a later moment answers as one folded at that moment, row for row", () => {
  fc.assert(
    fc.property(scenarioArb(30, { privacy: true }), fc.nat(), fc.nat(), (scenario, a, b) => {
      const events = eventsOf(scenario.steps)
      if (events.length === 0) return
      withTempStores((open) => {
        const store = open()
        appendScenario(store, scenario, events)
        const head = store.read((db) => db.prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n
        const [from, end] = [a % (head + 1), b % (head + 1)].sort((x, y) => x - y) as [number, number]
        const nowMs = Date.parse(events[events.length - 1]!.recordedAt)
        const moved = foldedPrefix(store, from)
        const folded = foldedPrefix(store, end)
        try {
          advancePrefix(moved, store.config, from, end)
          expect(diffSnapshots(snapshotProjections(moved.db), snapshotProjections(folded.db))).toEqual([])
          expect(answers(moved, nowMs)).toBe(answers(folded, nowMs))
        } finally {
          moved.close()
          folded.close()
        }
      })
    }),
    { numRuns: 60 }
  )
})
