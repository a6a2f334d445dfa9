/**
 * Protects the read behind task links: recalls and outcomes that name a task are found through
 * the `events_task` index (not by decoding every recall), and a store made before the index
 * gets it when it is opened.
 */
import { describe, expect, it } from "vitest"
import type { DomainEvent } from "../../src/events/events.js"
import { readEvents } from "../../src/store/sqlite/event-log.js"
import { LOG_SCHEMA_VERSION } from "../../src/store/sqlite/schema.js"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { taskLinksReader } from "../../src/tasks/links.js"
import { added, outcome } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { openTempStore } from "../support/temp-store.js"
import { hasIndex, planOf, reopenedWithout } from "../support/log-indexes.js"
import { sqliteReads } from "../../src/store/sqlite/sqlite-reads.js"

const A = memoryId(1)
const B = memoryId(2)
let counter = 0
const append = (store: LedgerStore, events: ReadonlyArray<DomainEvent>, origin = "test") =>
  store.writeOrThrow((tx) => tx.append(events.map((event) => ({ id: eventId(++counter), recordedAt: "2026-01-01T00:00:00.000Z", origin, agent: "test", event }))))
const recalled = (task: string | undefined, ...memoryIds: typeof A[]): DomainEvent => ({ _tag: "MemoriesRecalled", query: "q", memoryIds, ...(task === undefined ? {} : { task }) })

describe("task links", () => {
  it("are the memories recalled under the task, each once, and its first outcome", () => {
    const store = openTempStore()
    append(store, [added(A, "a"), added(B, "b"), recalled("beads:bd-1", B, A), recalled("beads:bd-2", A), recalled(undefined, A), recalled("beads:bd-1", A)])
    append(store, [outcome([A], "partial", { task: "beads:bd-1" }), outcome([B], "worked", { task: "beads:bd-1" })])
    const links = taskLinksReader(sqliteReads(store.db))
    expect(links("beads:bd-1")).toMatchObject({ memoryIds: [B, A], recorded: { outcome: "partial" } })
    expect(links("beads:bd-2")).toEqual({ memoryIds: [A], recorded: undefined })
    expect(links("beads:bd-3")).toEqual({ memoryIds: [], recorded: undefined })
  })

  it("are read through the events_task index", () => {
    const store = openTempStore()
    append(store, [added(A, "a"), recalled("beads:bd-1", A)])
    let types: string[] = []
    const plan = planOf(store, () => (types = [...readEvents(store.db, { task: "beads:bd-1" })].map((e) => e.type)), "json_extract", 0, "beads:bd-1")
    expect(types).toEqual(["MemoriesRecalled"])
    expect(plan).toContain("USING INDEX events_task")
  })

  it("reach a store made before the index, once it is opened again", () => {
    const store = openTempStore()
    append(store, [added(A, "a"), recalled("beads:bd-1", A)])
    const reopened = reopenedWithout(store, "events_task", 2)
    try {
      expect(reopened.db.pragma("user_version", { simple: true })).toBe(LOG_SCHEMA_VERSION)
      expect(hasIndex(reopened, "events_task")).toBe(true)
      expect(taskLinksReader(sqliteReads(reopened.db))("beads:bd-1").memoryIds).toEqual([A])
    } finally {
      reopened.close()
    }
  })
})
