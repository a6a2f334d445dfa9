/**
 * Capture keys: a span a conversation already gave adds nothing (not even a confirmation), a
 * later conversation's restatement confirms and records its own key, the evidence is redacted
 * as the content is, and a log holding captures replays to the very same hash chain. On every store.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { expect, it } from "vitest"
import { Operations, type Caller } from "../../src/api/operations.js"
import { captureRules } from "../../src/capture/capture-rules.js"
import { memAt, tempDir } from "../support/cli.js"
import { describeEachStore, T0, runAt } from "../support/services.js"

const session = (id: string): Caller => ({ origin: `claude-code:session/${id}`, agent: "claude-code", project: "github.com/acme/shop" })
const logOf = (db: string) => runAt(db, T0, Effect.flatMap(Operations, (o) => o.log({ limit: 100 }, session("x")))).then((l) => l.events)
const PROMPT = "Fix the checkout test. Never push to main, open a PR instead."

describeEachStore((store) => {
  it("a span the conversation already gave adds nothing, not even a confirmation, though its state was lost", async () => {
    const db = await store.fresh()
    await runAt(db, T0, captureRules(PROMPT, [], session("a")))
    // No restatement keys passed: as an import, or a hook whose session state was lost, would call it.
    const again = await runAt(db, T0, captureRules(PROMPT, [], session("a")))
    expect(again.written).toBe(0)
    const events = await logOf(db)
    expect(events.map((e) => e.type)).toEqual(["MemoryAdded"])
    expect(events[0]!.payload).toMatchObject({ capture: { kind: "prompt-rule", evidence: PROMPT } })
    expect((events[0]!.payload as { capture: { span: string } }).capture.span).toMatch(/^[0-9a-f]{64}$/)
  })

  it("a later conversation's restatement confirms with its own key, once", async () => {
    const db = await store.fresh()
    await runAt(db, T0, captureRules(PROMPT, [], session("a")))
    for (let i = 0; i < 2; i++) await runAt(db, T0, captureRules("never push to main, open a PR instead", [], session("b")))
    const events = await logOf(db)
    expect(events.map((e) => e.type)).toEqual(["MemoryAdded", "MemoryConfirmed"])
    expect(events[1]).toMatchObject({ origin: "claude-code:session/b", payload: { capture: { kind: "prompt-rule" } } })
  })

  it("keeps the evidence redacted as the content is", async () => {
    const db = await store.fresh()
    const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    await runAt(db, T0, captureRules(`The registry token is ${secret}. Always use the token ${secret} for the registry.`, [], session("a")))
    const [added] = await logOf(db)
    expect(JSON.stringify(added!.payload)).not.toContain(secret)
    expect((added!.payload as { capture: { evidence: string } }).capture.evidence).toContain("Always use the token")
  })

  it("an exported log with captures replays to the same hashes", async () => {
    const dir = tempDir()
    const db = await store.fresh()
    await runAt(db, T0, captureRules(PROMPT, [], session("a")))
    await runAt(db, T0, captureRules("never push to main, open a PR instead", [], session("b")))
    const run = memAt(db)
    expect(run("add", "Deploy with make deploy", "--global").code).toBe(0)
    const file = join(dir, "log.jsonl")
    expect(run("export", file).code).toBe(0)
    const replayed = memAt(await store.fresh())
    expect(replayed("replay", file).code).toBe(0)
    const hashes = (r: ReturnType<typeof memAt>) => r("log", "--json").json().map((e: { hash: string }) => e.hash)
    expect(hashes(replayed)).toEqual(hashes(run))
    expect(readFileSync(file, "utf8")).toContain('"capture":{"span"')
    expect(replayed("verify").code).toBe(0)
  })
})
