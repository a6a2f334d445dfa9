/**
 * The SDK in local mode, over a real SQLite file: every operation answers as the wire types
 * say, what it writes is the store the CLI reads, bad input rejects with a MemledgerError
 * (never a crash, never a write), and a closed client refuses further calls.
 */
import Database from "better-sqlite3"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { MemledgerError, MemoryClient, type LocalOptions } from "../../src/sdk/index.js"
import { memAt, tempDir } from "../support/cli.js"
import { CUE_SESSION_REFUSALS, SESSION_REFUSALS, cueSession, sdkSession } from "../support/sdk-session.js"

const open = (options: LocalOptions = {}) => {
  const db = join(tempDir(), "m.db")
  const memory = MemoryClient.local({ db, origin: "sdk-test/session-1", agent: "sdk-test", project: "github.com/acme/app", ...options })
  onTestFinished(memory.close)
  return { db, memory }
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => {
      expect(error).toBeInstanceOf(MemledgerError)
      return { tag: (error as MemledgerError).tag, message: (error as MemledgerError).message }
    }
  )

describe("MemoryClient.local", () => {
  it("runs every operation against the store file, as the caller it was opened as", async () => {
    const { db, memory } = open()
    const answers = await sdkSession(memory)
    const ok = (i: number) => (answers[i] as { ok: any }).ok

    expect(ok(0)).toMatchObject({ stored: true, shortId: expect.any(String) })
    expect(ok(2)).toMatchObject({ stored: false, confirmed: true, confirmations: 2 })
    expect(ok(3)).toMatchObject({ stored: false, reason: "similar memories exist", similar: [{ id: ok(0).id }] })
    expect(ok(7).results.map((r: { content: string }) => r.content)).toEqual(["Deploy with just deploy ENV=prod"])
    expect(ok(8).leftOut).toContainEqual(expect.objectContaining({ id: ok(0).id, stage: "superseded" }))
    expect(ok(9).text).toContain("Deploy with just deploy ENV=prod")
    expect(ok(10)).toMatchObject({
      project: "github.com/acme/app",
      origin: "sdk-test/session-1",
      agent: "sdk-test",
      record: { workedCount: 1, failedCount: 0, gated: false }
    })
    expect(ok(13)).toEqual({ id: ok(1).id, forgotten: true, changed: true })
    expect(ok(14).memories.find((m: { id: string }) => m.id === ok(1).id)).toMatchObject({ forgotten: true, forgottenReason: "wrong" })
    expect(ok(16)).toMatchObject({ origin: "codex:thread/x", forgotten: true, changed: true })
    expect(ok(17).conversations.map((c: { origin: string }) => c.origin).sort()).toEqual(["claude-code:session/a", "codex:thread/x", "sdk-test/session-1"])
    expect(ok(20).events).toHaveLength(3)
    expect(ok(20).next).toBe(3)
    expect(ok(22)).toMatchObject({ memories: { live: 1, superseded: 2 }, outcomes: { worked: 2, failed: 1 } })
    expect(answers.slice(-SESSION_REFUSALS.length).map((a) => ("error" in a ? a.error : "ok"))).toEqual(SESSION_REFUSALS)

    // The CLI reads the same file: what the SDK wrote is there.
    await memory.close()
    const listed = memAt(db)("list", "--all", "--json").json()
    expect(listed.map((m: { id: string }) => m.id).sort()).toEqual([ok(0).id, ok(1).id, ok(4).id].sort())
  })

  it("writes cues, searches with further phrasings, lists a learned cue with its source and drops it", async () => {
    const { db, memory } = open()
    const answers = await cueSession(memory)
    const ok = (i: number) => (answers[i] as { ok: any }).ok
    const deploy = ok(0).id
    const flaky = ok(2).id

    expect(ok(1).results[0]).toMatchObject({ id: deploy, coverage: { source: "written cue", cue: "how do I ship to production?" } })
    expect(ok(3).results.map((r: { id: string }) => r.id)).not.toContain(flaky)
    expect(ok(4).results[0]).toMatchObject({ id: flaky, coverage: { phrasing: "playwright flaky retries", source: "content" } })
    expect(ok(5).results.map((r: { id: string }) => r.id)).toEqual([flaky])
    expect(ok(6).included).toEqual([flaky])
    expect(ok(8)).toMatchObject({
      memory: { id: flaky, cues: [] },
      cues: [{ text: "the browser checks keep failing at random", source: "learned", project: "github.com/acme/app", origin: "claude-code:session/s1" }]
    })
    expect(ok(9)).toEqual({ id: flaky, dropped: "the browser checks keep failing at random" })
    expect(ok(10).cues).toEqual([])
    expect(ok(11)).toEqual({ id: deploy, changed: true })
    expect(ok(12)).toMatchObject({ memory: { id: deploy, cues: [] }, cues: [] })
    expect(answers.slice(-CUE_SESSION_REFUSALS.length)).toEqual([
      { error: "InvalidInput", message: `the memory has no learned cue "the browser checks keep failing at random"; 'mem cues ID' lists them` },
      { error: "InvalidInput", message: "cues: 6 cues; a memory takes at most 5" },
      { error: "InvalidInput", message: "also: 6 further phrasings; at most 5" },
      { error: "MemoryNotFound", message: "no memory has the id zzzzzzzz" }
    ])

    // The CLI reads the same file: the drop is in the log.
    await memory.close()
    const log = memAt(db)("log", "--memory", flaky, "--json").json()
    // Newest first.
    expect(log[0]).toMatchObject({ type: "CueDropped", origin: "sdk-test/session-1", payload: { cue: "the browser checks keep failing at random" } })
  })

  it("rejects bad input with the tag the store would give, and writes nothing", async () => {
    const { memory } = open()
    expect(await rejection(memory.remember({ content: "x".repeat(10_001) }))).toEqual({
      tag: "InvalidContent",
      message: "invalid content: the content is 10001 characters; the limit is 10000"
    })
    expect(await rejection(memory.remember({ content: "fine", category: "gotchas" as never }))).toMatchObject({ tag: "UnknownCategory" })
    expect(await rejection(memory.recall({ query: "deploy", limit: 1000 }))).toMatchObject({ tag: "InvalidInput", message: expect.stringMatching(/^limit: /) })
    expect(await rejection(memory.recall(undefined as never))).toMatchObject({ tag: "InvalidInput" })
    expect(await rejection(memory.forget({ memory_id: "not an id at all, far too long to be one" }))).toMatchObject({ tag: "InvalidId" })
    // Unknown fields are refused, not dropped: edit cannot change a scope, and must not pretend to.
    expect(await rejection(memory.remember({ content: "fine", bogus: 1 } as never))).toMatchObject({ tag: "InvalidInput", message: expect.stringMatching(/^bogus: is unexpected/) })
    expect(await rejection(memory.edit({ id: "ZZZZZZZZ", scope: "project" } as never))).toMatchObject({ tag: "InvalidInput", message: expect.stringMatching(/^scope: /) })
    expect((await memory.log()).events).toEqual([])
  })

  it("rejects every call on a file that is not a memledger store, and leaves it alone", async () => {
    const path = join(tempDir(), "theirs.db")
    const foreign = new Database(path)
    foreign.exec("CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT)")
    foreign.close()
    const { memory } = open({ db: path })
    expect(await rejection(memory.stats())).toMatchObject({ tag: "DatabaseUnusable", message: expect.stringContaining("not a memledger store") })
    expect(await rejection(memory.remember({ content: "x" }))).toMatchObject({ tag: "DatabaseUnusable" })
  })

  it("refuses calls once closed, by close() or Symbol.asyncDispose", async () => {
    const { db, memory } = open()
    await memory.remember({ content: "kept" })
    await memory[Symbol.asyncDispose]()
    expect(await rejection(memory.list())).toEqual({ tag: "Closed", message: "this MemoryClient is closed" })
    await memory.close()
    const reopened = MemoryClient.local({ db })
    onTestFinished(reopened.close)
    expect((await reopened.list()).memories.map((m) => m.content)).toEqual(["kept"])
  })
})
