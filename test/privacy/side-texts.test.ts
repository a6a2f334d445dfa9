/**
 * The texts that ride along with writes pass the privacy scan too: a recall's query and task,
 * an outcome's note and task, tags, and a forget reason. A key pasted into any of them is
 * redacted before the event is stored, and `<private>` spans are dropped. On every store.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { actor, Commands, describeEachStore, Queries, Retrieval, runAt, T0 } from "../support/services.js"

const KEY = "ghp_" + "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"

describeEachStore((store) => {
  describe("side texts of a write", () => {
    it("are scanned before they are stored", async () => {
      const db = await store.fresh()
      const events = await runAt(
        db,
        T0,
        Effect.gen(function* () {
          const commands = yield* Commands
          const added = yield* commands.add({ content: "Deploy tokens live in the vault", scope: "global", project: null, tags: [`leaked ${KEY}`] }, actor)
          yield* (yield* Retrieval).search({ query: `deploy tokens ${KEY}`, project: null, task: `task <private>secret plan</private> 7` }, actor)
          yield* commands.outcome([added.id], "worked", { note: `used ${KEY} once`, task: "beads:bd-1" }, actor)
          yield* commands.forget(added.id, `rotated ${KEY}`, actor)
          return yield* (yield* Queries).log({})
        })
      )
      const stored = JSON.stringify(events)
      expect(stored).not.toContain(KEY)
      expect(stored).not.toContain("secret plan")
      const recalled = events.find((e) => e.event?._tag === "MemoriesRecalled")!.event as { query: string; task: string }
      expect(recalled.query).toMatch(/^deploy tokens \[redacted/)
      expect(recalled.task).toBe("task 7")
      const outcome = events.find((e) => e.event?._tag === "OutcomeRecorded")!.event as { note: string; task: string }
      expect(outcome.note).toMatch(/^used \[redacted.*\] once$/)
      expect(outcome.task).toBe("beads:bd-1")
    })
  })
})
