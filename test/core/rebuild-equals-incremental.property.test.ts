/**
 * Protects the projections' invariant: after any sequence of appends, the projections kept in step
 * inside each append transaction equal a rebuild from the log (memories, evidence, FTS with the
 * totals its BM25 reads, conversations, learned cues, the overview's counts), on logs where memories are made private
 * and shared again (outcomes on them are counted apart).
 */
import * as fc from "fast-check"
import { test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { rebuildProjections } from "../../src/store/sqlite/projections/rebuild.js"
import { appendScenario, scenarioArb } from "../support/ledger-arbitrary.js"
import { expectSameProjections, snapshot } from "../support/snapshot.js"
import { withTempStores } from "../support/temp-store.js"

const ALL = ["memories", "evidence", "fts", "ftsOrphans", "ftsTotals", "conversations", "cues", "cueStates", "memoryCounts", "outcomeDays", "privateOutcomes"] as const

test("incremental projections equal a rebuild after any sequence of batched appends", () => {
  fc.assert(
    fc.property(scenarioArb(40, { privacy: true }), (scenario) =>
      withTempStores((open) => {
        const store = open()
        appendScenario(store, scenario)
        const incremental = snapshot(store.db)
        store.db.transaction(() => rebuildProjections(store.db, DEFAULT_CONFIG)).immediate()
        expectSameProjections(incremental, snapshot(store.db), ALL)
      })
    ),
    { numRuns: 120 }
  )
})
