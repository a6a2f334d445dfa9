/**
 * Protects forgetting a conversation: it hides exactly that conversation's events (the result
 * equals replaying the log without them into a fresh store), and undoing it restores the
 * projections exactly (forget then restore is the identity).
 */
import * as fc from "fast-check"
import { test } from "vitest"
import { isConversationControl } from "../../src/events/events.js"
import { readEvents } from "../../src/store/sqlite/event-log.js"
import type { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { appendAll, appendScenario, conversationSwitch, eventsOf, forgottenAtEnd, ORIGINS, scenarioArb } from "../support/ledger-arbitrary.js"
import { expectSameProjections, snapshot } from "../support/snapshot.js"
import { withTempStores } from "../support/temp-store.js"
import { type NewEvent } from "../../src/events/log.js"

const control = conversationSwitch

const logOf = (store: LedgerStore): NewEvent[] =>
  [...readEvents(store.db)].map(({ id, recordedAt, origin, agent, event }) => ({ id, recordedAt, origin, agent, event: event! }))

/**
 * The events that forgetting `origin` hides: its own, and the switches that name it. A switch
 * that `origin` itself sent about another conversation stays: conversation events steer which
 * origins count and are never hidden themselves (events.ts, isConversationControl).
 */
const concerns = (e: NewEvent, origin: string) =>
  isConversationControl(e.event) ? e.event.origin === origin : e.origin === origin

test("forgetting a conversation equals replaying the log without its events", () => {
  fc.assert(
    fc.property(scenarioArb(), fc.constantFrom(...ORIGINS), (scenario, x) =>
      withTempStores((open) => {
        const store = open()
        appendScenario(store, scenario)
        appendAll(store, [[control("ConversationForgotten", x, 1)]])

        const replayed = open()
        appendScenario(replayed, scenario, logOf(store).filter((e) => !concerns(e, x)))
        // Sequence numbers differ once events are left out, so seq-valued columns are not compared.
        expectSameProjections(snapshot(store.db, { withoutSeq: true }), snapshot(replayed.db, { withoutSeq: true }), [
          "memories",
          "evidence",
          "fts",
          "cues",
          "cueStates",
          // Outcome days are not: they keep a forgotten conversation's, which the overview leaves out when it reads them.
          "memoryCounts"
        ])
      })
    ),
    { numRuns: 80 }
  )
})

test("forgetting a conversation and then restoring it changes no memory, no evidence and no cue", () => {
  fc.assert(
    fc.property(scenarioArb(), fc.constantFrom(...ORIGINS), fc.boolean(), (scenario, x, oneTransaction) =>
      withTempStores((open) => {
        const store = open()
        const events = eventsOf(scenario.steps)
        appendScenario(store, scenario, events)
        const before = snapshot(store.db)
        // Toggle twice: forget then restore, or restore then forget if it is already forgotten.
        const [first, second] = forgottenAtEnd(events).has(x)
          ? [control("ConversationRestored", x, 1), control("ConversationForgotten", x, 2)]
          : [control("ConversationForgotten", x, 1), control("ConversationRestored", x, 2)]
        appendAll(store, oneTransaction ? [[first, second]] : [[first], [second]])
        expectSameProjections(snapshot(store.db), before, ["memories", "evidence", "fts", "ftsOrphans", "cues", "cueStates", "memoryCounts", "outcomeDays"])
      })
    ),
    { numRuns: 80 }
  )
})
