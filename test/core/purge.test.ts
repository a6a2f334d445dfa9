/**
 * Purge erases a forgotten conversation's text but not its decisions about other
 * conversations: if X forgot Y, purging X must not bring Y back. On every store.
 */
import { Effect } from "effect"
import { expect, it } from "vitest"
import { Console } from "../../src/services/console.js"
import { Commands, describeEachStore, Maintenance, Queries, runAt, T0 } from "../support/services.js"

describeEachStore((store) => {
  it("keeps a purged conversation's forget of another conversation in force", async () => {
    const db = await store.fresh()
    const list = () => runAt(db, T0, Effect.flatMap(Console, (c) => c.page({ limit: 100 })).pipe(Effect.map((p) => p.views)))
    await runAt(
      db,
      T0,
      Effect.gen(function* () {
        const c = yield* Commands
        yield* c.add({ content: "from Y", scope: "global", project: null }, { origin: "Y", agent: "t" })
        yield* c.add({ content: "from X", scope: "global", project: null }, { origin: "X", agent: "t" })
        yield* c.forgetConversation("Y", false, { origin: "X", agent: "t" })
        yield* c.forgetConversation("X", false, { origin: "cli", agent: "t" })
      })
    )
    expect(await list()).toEqual([])
    await runAt(db, T0, Effect.flatMap(Maintenance, (m) => m.purge({ memories: false })))
    expect(await list()).toEqual([])
    // Y is still forgotten: what it adds later stays hidden too.
    await runAt(db, T0, Effect.flatMap(Commands, (c) => c.add({ content: "Y again", scope: "global", project: null }, { origin: "Y", agent: "t" })))
    expect(await list()).toEqual([])
    const conversations = await runAt(db, T0, Effect.flatMap(Queries, (q) => q.conversations()))
    expect(conversations.find((c) => c.origin === "Y")?.forgotten).toBe(true)
    const verify = await runAt(db, T0, Effect.flatMap(Maintenance, (m) => m.verify()))
    expect(verify.ok).toBe(true)
  })
})
