/**
 * Protects the read every fold of the log starts with (a rebuild, a purge, a past store): which
 * conversations end forgotten is found through the partial index `events_conversation_controls`,
 * a handful of rows, not by reading every event; and a store made before the index gets it when
 * it is opened.
 */
import { describe, expect, it } from "vitest"
import type { DomainEvent } from "../../src/events/events.js"
import { logOutline } from "../../src/store/sqlite/projections/rebuild.js"
import { LOG_SCHEMA_VERSION } from "../../src/store/sqlite/schema.js"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { added, conversationForgotten, conversationRestored } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { openTempStore } from "../support/temp-store.js"
import { hasIndex, planOf, reopenedWithout } from "../support/log-indexes.js"

let counter = 0
const append = (store: LedgerStore, events: ReadonlyArray<DomainEvent>) =>
  store.writeOrThrow((tx) => tx.append(events.map((event) => ({ id: eventId(++counter), recordedAt: "2026-01-01T00:00:00.000Z", origin: "test", agent: "test", event }))))

const LOG = [added(memoryId(1), "a"), conversationForgotten("codex:thread/a"), conversationForgotten("codex:thread/b"), conversationRestored("codex:thread/a")]

describe("the conversations a fold leaves out", () => {
  it("are those forgotten at the end of the log, read through the events_conversation_controls index", () => {
    const store = openTempStore()
    append(store, LOG)
    let hidden: string[] = []
    const plan = planOf(store, () => (hidden = [...logOutline(store.db).hidden]), "ConversationForgotten")
    expect(hidden).toEqual(["codex:thread/b"])
    expect(plan).toContain("USING INDEX events_conversation_controls")
  })

  it("are read the same way from a store made before the index, once it is opened again", () => {
    const store = openTempStore()
    append(store, LOG)
    const reopened = reopenedWithout(store, "events_conversation_controls", 8)
    try {
      expect(reopened.db.pragma("user_version", { simple: true })).toBe(LOG_SCHEMA_VERSION)
      expect(hasIndex(reopened, "events_conversation_controls")).toBe(true)
      expect([...logOutline(reopened.db).hidden]).toEqual(["codex:thread/b"])
    } finally {
      reopened.close()
    }
  })
})
