/**
 * A server keeps the last past store it read (`why --at`) in memory. A purge erases text from
 * the log: the next read of the same moment must not come from the store folded before it, which
 * still holds that text.
 */
import { expect, test } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { purgeForgotten } from "../../src/store/sqlite/purge.js"
import { PastStores } from "../../src/store/sqlite/time-travel.js"
import { added, conversationForgotten } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { openTempStore } from "../support/temp-store.js"

const MARKER = "zqxj-marker-past-4e1b"
const at = (day: number) => new Date(Date.UTC(2026, 0, day)).toISOString()

test("a past store folded before a purge is not read after it: the same moment is folded again, without the erased text", () => {
  const store = openTempStore()
  const LEAKY = "claude-code:session/leaky"
  store.writeOrThrow((tx) =>
    tx.append([
      { id: eventId(1), recordedAt: at(1), origin: "cli", agent: "test", event: added(memoryId(1), "the build uses Node 20") },
      { id: eventId(2), recordedAt: at(2), origin: LEAKY, agent: "test", event: added(memoryId(2), `${MARKER} is the staging password`) },
      { id: eventId(3), recordedAt: at(4), origin: "cli", agent: "test", event: conversationForgotten(LEAKY) }
    ])
  )
  const past = new PastStores(store)
  const textAt3 = () => past.read(at(3), (then) => then.db.prepare("SELECT content FROM memories ORDER BY id").all())
  try {
    expect(JSON.stringify(textAt3())).toContain(MARKER)
    purgeForgotten(store.db, DEFAULT_CONFIG, { memories: false })
    expect(JSON.stringify(textAt3())).not.toContain(MARKER)
    expect(textAt3()).toEqual([{ content: "the build uses Node 20" }])
  } finally {
    past.close()
  }
})
