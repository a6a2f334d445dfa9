/**
 * The SDK in remote mode, against the REST API on a real local socket over a real store
 * (test/support/rest-server.ts): the same answers and error tags as local mode, the caller
 * and the token sent as headers, and a server that is down, silent or refusing reported as
 * what it is.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { MemledgerError, MemoryClient, type RemoteOptions } from "../../src/sdk/index.js"
import { tempDir } from "../support/cli.js"
import { normalizer } from "../support/normalize.js"
import { startRestServer, unusedUrl } from "../support/rest-server.js"
import { CUE_SESSION_REFUSALS, SESSION_REFUSALS, cueSession, sdkSession } from "../support/sdk-session.js"

const caller = { origin: "sdk-test/session-1", agent: "sdk-test", project: "github.com/acme/app" }

const serve = async (options: { token?: string } = {}) => {
  const server = await startRestServer(options)
  onTestFinished(server.close)
  return server
}

const remote = (options: RemoteOptions) => {
  const memory = MemoryClient.remote(options)
  onTestFinished(memory.close)
  return memory
}

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => {
      expect(error).toBeInstanceOf(MemledgerError)
      return { tag: (error as MemledgerError).tag, message: (error as MemledgerError).message }
    }
  )

describe("MemoryClient.remote", () => {
  it("answers every operation as local mode does, errors with the same tags and messages", async () => {
    const server = await serve()
    const local = MemoryClient.local({ db: join(tempDir(), "local.db"), ...caller })
    onTestFinished(local.close)
    const [here, there] = await Promise.all([sdkSession(local), sdkSession(remote({ url: server.url, ...caller }))])
    expect(normalizer()(there)).toEqual(normalizer()(here))
    expect(there.slice(-SESSION_REFUSALS.length).map((a) => ("error" in a ? a.error : "ok"))).toEqual(SESSION_REFUSALS)
    expect(there.slice(0, -SESSION_REFUSALS.length).every((a) => "ok" in a)).toBe(true)
  })

  it("writes, lists and drops cues and searches with further phrasings as local mode does", async () => {
    const server = await serve()
    const local = MemoryClient.local({ db: join(tempDir(), "local.db"), ...caller })
    onTestFinished(local.close)
    const [here, there] = await Promise.all([cueSession(local), cueSession(remote({ url: server.url, ...caller }))])
    expect(normalizer()(there)).toEqual(normalizer()(here))
    expect(there.slice(-CUE_SESSION_REFUSALS.length).map((a) => ("error" in a ? a.error : "ok"))).toEqual(CUE_SESSION_REFUSALS)
    expect(there.slice(0, -CUE_SESSION_REFUSALS.length).every((a) => "ok" in a)).toBe(true)
    // The learned cue came back over the wire with where it was learned.
    expect((there[8] as { ok: { cues: unknown[] } }).ok.cues).toEqual([expect.objectContaining({ source: "learned", origin: "claude-code:session/s1" })])
  })

  it("sends the caller as x-memledger-* headers and writes as that caller", async () => {
    const server = await serve()
    const memory = remote({ url: server.url, ...caller })
    const added = await memory.remember({ content: "The staging database is reset every night" })
    expect(server.requests.at(-1)).toMatchObject({
      "x-memledger-origin": "sdk-test/session-1",
      "x-memledger-agent": "sdk-test",
      "x-memledger-project": "github.com/acme/app"
    })
    if (!("id" in added)) throw new Error("expected a stored memory")
    expect(await memory.getMemory({ id: added.id })).toMatchObject({ ...caller, scope: "project" })
    // A call's own origin wins over the client's.
    await memory.recordOutcome({ memory_ids: [added.id], outcome: "worked", origin: "claude-code:session/b" })
    const { events } = await memory.log({ memory: added.id })
    expect(events.map((e) => [e.type, e.origin])).toEqual([
      ["MemoryAdded", "sdk-test/session-1"],
      ["OutcomeRecorded", "claude-code:session/b"]
    ])
  })

  it("sends its token as a Bearer token, and without the right one rejects with Unauthorized", async () => {
    const server = await serve({ token: "s3cret" })
    expect(await rejection(remote({ url: server.url }).stats())).toMatchObject({ tag: "Unauthorized", message: expect.stringContaining("MEMLEDGER_TOKEN") })
    expect(await rejection(remote({ url: server.url, token: "wrong" }).stats())).toMatchObject({ tag: "Unauthorized" })
    expect((await remote({ url: server.url, token: "s3cret" }).stats()).events).toBe(0)
    expect(server.requests.at(-1)?.authorization).toBe("Bearer s3cret")
  })

  it("rejects with ServiceUnavailable when nothing listens, or nothing answers in time", async () => {
    const url = await unusedUrl()
    expect(await rejection(remote({ url }).list())).toEqual({
      tag: "ServiceUnavailable",
      message: `cannot reach memledger at ${url} (ECONNREFUSED); is 'mem serve' running there?`
    })

    const silent = createServer(() => {})
    await new Promise<void>((ready) => silent.listen(0, "127.0.0.1", ready))
    onTestFinished(() => {
      silent.closeAllConnections()
      silent.close()
    })
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    expect(await rejection(remote({ url: silentUrl, timeoutMs: 300 }).stats())).toMatchObject({
      tag: "ServiceUnavailable",
      message: expect.stringContaining(`memledger at ${silentUrl} did not answer within`)
    })
  })

  it("refuses unknown fields before sending anything, as local mode does", async () => {
    const server = await serve()
    const memory = remote({ url: server.url, ...caller })
    expect(await rejection(memory.remember({ content: "fine", bogus: 1 } as never))).toMatchObject({ tag: "InvalidInput", message: expect.stringMatching(/^bogus: is unexpected/) })
    expect(await rejection(memory.edit({ id: "ZZZZZZZZ", scope: "project" } as never))).toMatchObject({ tag: "InvalidInput", message: expect.stringMatching(/^scope: /) })
    expect(server.requests).toHaveLength(0)
  })

  it("rejects a URL that is not http(s) before sending anything", async () => {
    expect(await rejection(remote({ url: "127.0.0.1:7878" }).stats())).toMatchObject({ tag: "InvalidConfig" })
  })
})
