/**
 * Every endpoint of the REST API, over a real socket, against the real `mem serve` process:
 * what each answers, and that the caller headers decide whom a write is recorded under.
 */
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempDir } from "../support/cli.js"
import { startServe, stopAllServers, type Served } from "../support/serve.js"

const agentHeaders = { "x-memledger-origin": "claude-code:session/abc", "x-memledger-agent": "claude-code", "x-memledger-project": "github.com/acme/shop" }

let server: Served
beforeAll(async () => {
  server = await startServe(join(tempDir(), "m.db"))
})
afterAll(stopAllServers)

const ok = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
  const answer = await server.call(method, path, body, headers)
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(200)
  expect(answer.headers.get("content-type")).toMatch(/application\/json/)
  return answer.json()
}

describe("the REST API over a real socket", () => {
  it("answers GET /health without anything else", async () => {
    expect(await ok("GET", "/health")).toEqual({ ok: true, version: expect.any(String) })
  })

  it("remembers, confirms a restatement, and holds back a near-duplicate until told how they relate", async () => {
    const stored = await ok("POST", "/memories", { content: "Deploy the shop with fly deploy --strategy bluegreen", category: "command", tags: ["deploy"] }, agentHeaders)
    expect(stored).toMatchObject({ stored: true, id: expect.any(String), shortId: expect.any(String) })
    const restated = await ok("POST", "/memories", { content: "deploy the shop with fly deploy --strategy bluegreen." }, agentHeaders)
    expect(restated).toMatchObject({ stored: false, confirmed: true, id: stored.id, confirmations: 2 })
    const similar = await ok("POST", "/memories", { content: "Deploy the shop using fly deploy with the bluegreen strategy" }, agentHeaders)
    expect(similar).toMatchObject({ stored: false, reason: "similar memories exist" })
    expect(similar.similar.map((s: { id: string }) => s.id)).toEqual([stored.id])

    const memory = await ok("GET", `/memories/${stored.shortId}`)
    expect(memory).toMatchObject({
      id: stored.id,
      category: "command",
      scope: "project",
      project: "github.com/acme/shop",
      origin: "claude-code:session/abc",
      agent: "claude-code",
      tags: ["deploy"],
      confirmations: 2
    })
  })

  it("lists with filters from the query string, edits, confirms, supersedes, forgets and restores", async () => {
    const a = await ok("POST", "/memories", { content: "Tests run with vitest, never jest", category: "convention", scope: "global" })
    const b = await ok("POST", "/memories", { content: "Postgres migrations live in db/migrate", category: "architecture", scope: "global" })

    const conventions = await ok("GET", "/memories?category=convention&limit=5")
    expect(conventions.memories.map((m: { id: string }) => m.id)).toEqual([a.id])
    const observed = await ok("POST", "/memories", { content: "Seeds run before every e2e suite", source: "observed", scope: "global" })
    const tentative = await ok("GET", "/memories?status=tentative")
    expect(tentative.memories.map((m: { id: string }) => m.id)).toEqual([observed.id])
    expect((await ok("GET", "/memories?status=confirmed")).memories.map((m: { id: string }) => m.id)).not.toContain(observed.id)

    expect(await ok("PATCH", `/memories/${a.id}`, { content: "Tests run with vitest (never jest)", tags: ["tests"] })).toEqual({ id: a.id, changed: true })
    expect(await ok("GET", `/memories/${a.id}`)).toMatchObject({ content: "Tests run with vitest (never jest)", tags: ["tests"] })

    expect(await ok("POST", `/memories/${a.id}/confirm`, {})).toMatchObject({ confirmed: true, id: a.id, confirmations: 2 })

    const c = await ok("POST", "/memories", { content: "Schema changes go through sqitch in db/deploy", category: "architecture", scope: "global" })
    expect(await ok("POST", `/memories/${b.id}/supersede`, { by: c.id })).toEqual({ id: b.id, supersededBy: c.id })
    const live = await ok("GET", "/memories")
    expect(live.memories.map((m: { id: string }) => m.id)).not.toContain(b.id)
    const all = await ok("GET", "/memories?all=true&limit=1000")
    expect(all.memories.map((m: { id: string }) => m.id)).toContain(b.id)

    expect(await ok("POST", `/memories/${a.id}/forget`, { reason: "obsolete" })).toEqual({ id: a.id, forgotten: true, changed: true })
    expect(await ok("GET", `/memories/${a.id}`)).toMatchObject({ forgotten: true })
    expect(await ok("POST", `/memories/${a.id}/restore`, {})).toEqual({ id: a.id, forgotten: false, changed: true })
  })

  it("searches, explains, builds context and records outcomes", async () => {
    const m = await ok("POST", "/memories", { content: "Redis runs on port 6380 in the dev compose file", category: "gotcha", scope: "global" })
    const search = await ok("POST", "/search", { query: "redis port", limit: 5, task: "beads:bd-7" })
    expect(search).toMatchObject({ query: "redis port", mode: "keyword" })
    expect(search.results[0]).toMatchObject({ id: m.id, rank: 1 })

    const why = await ok("POST", "/why", { query: "redis port", limit: 5 })
    expect(why.results.map((r: { id: string }) => r.id)).toEqual(search.results.map((r: { id: string }) => r.id))
    expect(why.results[0].events.relevance.length).toBeGreaterThan(0)

    const outcome = await ok("POST", "/outcomes", { memory_ids: [m.shortId], outcome: "worked", task: "beads:bd-7", note: "it was 6380" })
    expect(outcome).toEqual({ memory_ids: [m.id], outcome: "worked", recorded: true })
    expect((await ok("GET", `/memories/${m.id}`)).record).toMatchObject({ workedCount: 1, gated: false })

    const context = await ok("POST", "/context", { query: "redis", budget: 400 })
    expect(context.text).toContain("6380")
    expect(context.tokens).toBeLessThanOrEqual(400)
    expect(context.included).toContain(m.id)
  })

  it("lists, forgets and restores a conversation", async () => {
    const origin = "codex:thread/t-42"
    const m = await ok("POST", "/memories", { content: "The billing service retries webhooks three times", scope: "global" }, { "x-memledger-origin": origin })
    const listed = await ok("GET", "/conversations")
    expect(listed.conversations.find((c: { origin: string }) => c.origin === origin)).toMatchObject({ memoriesAdded: 1, forgotten: false })

    expect(await ok("POST", "/conversations/forget", { origin })).toMatchObject({ origin, forgotten: true, changed: true })
    expect((await server.call("GET", `/memories/${m.id}`)).status).toBe(404)
    expect(await ok("POST", "/conversations/restore", { origin })).toMatchObject({ origin, forgotten: false, changed: true })
    expect(await ok("GET", `/memories/${m.id}`)).toMatchObject({ content: "The billing service retries webhooks three times" })
  })

  it("reports stats, and pages through the event log with after/limit/next", async () => {
    const stats = await ok("GET", "/stats")
    expect(stats).toMatchObject({ events: expect.any(Number), memories: { live: expect.any(Number) }, search: { mode: "keyword" } })

    const seen: number[] = []
    let after: number | null = 0
    while (after !== null) {
      const page: { events: { seq: number; type: string }[]; next: number | null } = await ok("GET", `/events?after=${after}&limit=3`)
      expect(page.events.length).toBeLessThanOrEqual(3)
      seen.push(...page.events.map((e) => e.seq))
      after = page.next
    }
    expect(seen).toEqual(Array.from({ length: stats.events }, (_, i) => i + 1))

    // Forgetting and restoring were recorded under the caller ("rest"), not the conversation.
    const origin = await ok("GET", `/events?origin=${encodeURIComponent("codex:thread/t-42")}`)
    expect(origin.events.map((e: { type: string }) => e.type)).toEqual(["MemoryAdded"])
  })

  it("remembers with cues, lists them with GET /memories/{id}/cues, learns one from a conversation and drops it", async () => {
    const stored = await ok("POST", "/memories", { content: "Invoices are rendered by the pdf-worker queue", cues: ["where do invoice PDFs come from?"] }, agentHeaders)
    expect(await ok("GET", `/memories/${stored.id}/cues`)).toMatchObject({
      memory: { id: stored.id, cues: ["where do invoice PDFs come from?"], project: "github.com/acme/shop" },
      cues: [{ text: "where do invoice PDFs come from?", source: "written" }]
    })

    // A conversation searches in other words, misses, then reports that the memory worked.
    const conversation = { ...agentHeaders, "x-memledger-origin": "claude-code:session/billing" }
    const missed = await ok("POST", "/search", { query: "why are customer receipts slow to appear" }, conversation)
    expect(missed.results.map((r: { id: string }) => r.id)).not.toContain(stored.id)
    await ok("POST", "/outcomes", { memory_ids: [stored.id], outcome: "worked" }, conversation)
    const listed = await ok("GET", `/memories/${stored.shortId}/cues`)
    expect(listed.cues).toEqual([
      { text: "where do invoice PDFs come from?", source: "written" },
      {
        text: "why are customer receipts slow to appear",
        source: "learned",
        project: "github.com/acme/shop",
        weight: expect.closeTo(1, 3),
        origin: "claude-code:session/billing",
        outcomeEventId: expect.any(String),
        recallEventId: expect.any(String),
        learnedAt: expect.any(String)
      }
    ])
    const found = await ok("POST", "/search", { query: "why are customer receipts slow to appear" }, agentHeaders)
    expect(found.results[0]).toMatchObject({ id: stored.id, coverage: { source: "learned cue", learned: { origin: "claude-code:session/billing" } } })

    expect(await ok("POST", `/memories/${stored.id}/cues/drop`, { cue: "why are customer receipts slow to appear" })).toEqual({
      id: stored.id,
      dropped: "why are customer receipts slow to appear"
    })
    expect((await ok("GET", `/memories/${stored.id}/cues`)).cues).toEqual([{ text: "where do invoice PDFs come from?", source: "written" }])
    const log = await ok("GET", `/events?memory=${stored.id}`)
    expect(log.events.at(-1)).toMatchObject({ type: "CueDropped", origin: "rest", payload: { memoryId: stored.id, cue: "why are customer receipts slow to appear" } })

    // A written cue is no learned one to drop.
    const refused = await server.call("POST", `/memories/${stored.id}/cues/drop`, { cue: "where do invoice PDFs come from?" })
    expect(refused.status).toBe(400)
    expect(refused.json()).toMatchObject({ error: "InvalidInput", message: expect.stringContaining("has no learned cue") })
  })

  it("replaces written cues with PATCH and searches, explains and builds context with further phrasings", async () => {
    const m = await ok("POST", "/memories", { content: "Feature flags are read from LaunchDarkly at boot", scope: "global", cues: ["old cue"] })
    expect(await ok("PATCH", `/memories/${m.id}`, { cues: ["how do we toggle features?"] })).toEqual({ id: m.id, changed: true })
    expect((await ok("GET", `/memories/${m.id}`)).cues).toEqual(["how do we toggle features?"])

    const query = "switch something on for a few users only"
    expect((await ok("POST", "/search", { query })).results.map((r: { id: string }) => r.id)).not.toContain(m.id)
    const search = await ok("POST", "/search", { query, also: ["launchdarkly feature flags"] })
    expect(search.results.find((r: { id: string }) => r.id === m.id)).toMatchObject({ coverage: { phrasing: "launchdarkly feature flags", source: "content" } })
    const why = await ok("POST", "/why", { query, also: ["launchdarkly feature flags"] })
    expect(why.results.map((r: { id: string }) => r.id)).toEqual(search.results.map((r: { id: string }) => r.id))
    expect((await ok("POST", "/context", { query, also: ["launchdarkly feature flags"] })).included).toContain(m.id)

    const tooMany = await server.call("POST", "/search", { query, also: ["a", "b", "c", "d", "e", "f"] })
    expect(tooMany.status).toBe(400)
    expect(tooMany.json()).toEqual({ error: "InvalidInput", message: "'also': 6 further phrasings; at most 5", status: 400 })
  })

  it("answers a domain error with its status and {error, message, status}", async () => {
    const missing = await server.call("GET", "/memories/ZZZZZZZZ")
    expect(missing.status).toBe(404)
    expect(missing.json()).toEqual({ error: "MemoryNotFound", message: "no memory has the id ZZZZZZZZ", status: 404 })
  })
})
