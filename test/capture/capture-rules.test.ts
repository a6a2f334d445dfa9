/**
 * Rules from prompts kept in a real store: observed and tentative, once per conversation, a
 * later conversation's restatement confirming it, a secret redacted as for any write, and
 * nothing kept from a prompt that states no rule. On every store.
 */
import { Effect } from "effect"
import { expect, it } from "vitest"
import { Operations, type Caller } from "../../src/api/operations.js"
import { captureRules } from "../../src/capture/capture-rules.js"
import { describeEachStore, T0, runAt } from "../support/services.js"

const session = (id: string): Caller => ({ origin: `claude-code:session/${id}`, agent: "claude-code", project: "github.com/acme/shop" })
const listAll = (caller: Caller) => Effect.flatMap(Operations, (o) => o.list({}, caller))

describeEachStore((store) => {
  it("keeps each rule once per conversation, tentative, and a later conversation's restatement confirms it", async () => {
    const db = await store.fresh()
    const prompt = "Fix the checkout test. Never push to main, open a PR instead."
    const first = await runAt(db, T0, captureRules(prompt, [], session("a")))
    expect(first.written).toBe(1)
    const again = await runAt(db, T0, captureRules(prompt, first.stated, session("a")))
    expect(again).toEqual({ stated: first.stated, written: 0 })

    const [memory] = (await runAt(db, T0, listAll(session("a")))).memories
    expect(memory).toMatchObject({ content: "Never push to main, open a PR instead.", source: "observed", status: "tentative", scope: "project", category: "convention", confirmations: 1 })

    const context = (caller: Caller) => runAt(db, T0, Effect.flatMap(Operations, (o) => o.getContext({}, caller)))
    expect((await context(session("a"))).text).toContain(`(convention, github.com/acme/shop, tentative) "Never push to main, open a PR instead."`)

    const later = await runAt(db, T0, captureRules("never push to main, open a PR instead", [], session("b")))
    expect(later.written).toBe(1)
    expect((await runAt(db, T0, listAll(session("b")))).memories).toEqual([expect.objectContaining({ id: memory!.id, status: "confirmed", confirmations: 2 })])
    expect((await context(session("b"))).text).not.toContain("tentative")
  })

  it("keeps a rule said to hold everywhere as global, and one stated outside a project too", async () => {
    const db = await store.fresh()
    await runAt(db, T0, captureRules("From now on answer in bullet points, everywhere.", [], session("a")))
    await runAt(db, T0, captureRules("Always pin exact versions in package.json.", [], { ...session("b"), project: null }))
    const scopes = (await runAt(db, T0, listAll({ ...session("c"), project: null }))).memories.map((m) => [m.content, m.scope])
    expect(scopes).toEqual([
      ["Always pin exact versions in package.json.", "global"],
      ["From now on answer in bullet points, everywhere.", "global"]
    ])
  })

  it("redacts a secret in a rule as any write does, and keeps nothing from a prompt without a rule", async () => {
    const db = await store.fresh()
    await runAt(db, T0, captureRules("Can you fix the flaky login test? It never reaches the retry branch.", [], session("a")))
    expect((await runAt(db, T0, listAll(session("a")))).memories).toEqual([])
    await runAt(db, T0, captureRules("Always use the token ghp_abcdefghijklmnopqrstuvwxyz0123456789 for the registry.", [], session("a")))
    const [memory] = (await runAt(db, T0, listAll(session("a")))).memories
    expect(memory!.content).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    expect(memory!.status).toBe("tentative")
  })
})
