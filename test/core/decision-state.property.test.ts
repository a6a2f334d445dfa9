/**
 * Protects the decider specs themselves: the Map-backed DecisionState they fold from events
 * answers exactly as the store's own (read from the projections inside a write transaction),
 * so a given/when/then that passes describes what the real write path decides.
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { readEvents } from "../../src/store/sqlite/event-log.js"
import { restatementKey } from "../../src/domain/text.js"
import { decisionState } from "../support/decider-spec.js"
import { memoryId } from "../support/ids.js"
import { appendScenario, ORIGINS, scenarioArb, SLOTS } from "../support/ledger-arbitrary.js"
import { withTempStores } from "../support/temp-store.js"

test("the test DecisionState folded from the log equals the store's", () => {
  fc.assert(
    fc.property(scenarioArb(), (scenario) =>
      withTempStores((open) => {
        const store = open()
        appendScenario(store, scenario)
        const spec = decisionState([...readEvents(store.db)])
        const real = store.decisionState()
        for (let slot = 0; slot < SLOTS; slot++) {
          const id = memoryId(slot + 1)
          expect(spec.memory(id)).toEqual(real.memory(id))
          const m = real.memory(id)
          if (m === undefined) continue
          const key = restatementKey(m.content)
          expect(spec.restatementOf(key, m.scope, m.project)).toEqual(real.restatementOf(key, m.scope, m.project))
        }
        for (const origin of ORIGINS) expect(spec.conversation(origin)).toEqual(real.conversation(origin))
      })
    ),
    { numRuns: 40 }
  )
})
