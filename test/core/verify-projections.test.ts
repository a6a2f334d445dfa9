/**
 * `verify` compares every projection with a rebuild from the log, the totals BM25 reads of each
 * full-text index included: an index whose row count or token totals drifted from its rows
 * scores apart from the same log rebuilt, and verify names it.
 */
import { expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { verifyStore } from "../../src/store/sqlite/verify.js"
import { added, forgotten, revised } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { openTempStore } from "../support/temp-store.js"

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString()

test("verify finds a store's full-text totals equal to a rebuild's after edits, and names them once they drift", () => {
  const store = openTempStore()
  try {
    const events = [
      added(memoryId(1), "the build uses Node 20"),
      added(memoryId(2), "deploy with the staging script first"),
      revised(memoryId(1), { content: "the build and the tests use Node 20" }),
      forgotten(memoryId(2))
    ]
    store.writeOrThrow((tx) => tx.append(events.map((event, i) => ({ id: eventId(i + 1), recordedAt: at(i), origin: "cli", agent: "test", event }))))
    const now = at(10)
    expect(verifyStore(store.db, DEFAULT_CONFIG, now).projections).toEqual({ ok: true, differences: [] })

    // What a DELETE on a contentless_delete index did: the rows are right, the totals are not.
    // FTS5's own tables are written only out of SQLite's defensive mode.
    store.db.unsafeMode(true)
    store.db.prepare("UPDATE memories_fts_data SET block = X'0909090909090909' WHERE id = 1").run()
    store.db.unsafeMode(false)
    const { projections } = verifyStore(store.db, DEFAULT_CONFIG, now)
    expect(projections.ok).toBe(false)
    expect(projections.differences.map((d) => d.projection)).toEqual(["ftsTotals"])
  } finally {
    store.close()
  }
})
