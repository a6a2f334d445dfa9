/**
 * A private memory on a team server (`mem serve` with people's tokens): seen through tokens of
 * its author's name and never through anyone else's, on every surface. One real server process
 * per store (a SQLite file, and a PostgreSQL database unless MEMLEDGER_TEST_PG=off), real
 * tokens from `mem token add`, real HTTP. Every check that bob cannot see alice's memory has its
 * positive twin, that alice can, so that none passes only because the memory was never found.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { mem } from "../support/cli.js"
import { dropTestDatabases } from "../support/postgres.js"
import { STORE_LOCATIONS } from "../support/store-locations.js"
import { startServe, stopAllServers, type Answer, type Served } from "../support/serve.js"

/** Words no other memory holds, so that a search for them finds exactly the memories meant. */
const SECRET = "Preview deploys for zanzibar go through the blue cluster"
const SHARED = "Preview deploys need a signed quokka ticket first"
const ALICE = { origin: "claude-code:session/alice-1", agent: "claude-code" }
const BOB = { origin: "claude-code:session/bob-1", agent: "claude-code" }

interface Team {
  readonly served: Served
  readonly tokens: Record<"alice" | "bob" | "dana", string>
  /** Alice's private memory and her shared one. */
  readonly secret: string
  readonly shared: string
  readonly as: (who: "alice" | "bob" | "dana", method: string, path: string, body?: unknown, caller?: { origin: string; agent: string }) => Promise<Answer>
}


/** `mem token add` on the store, as its owner would run it on the server's machine. */
const addToken = (db: string, name: string, ...flags: string[]): string => {
  const added = mem(["--db", db, "token", "add", name, ...flags, "--json"])
  if (added.code !== 0) throw new Error(`mem token add ${name} failed: ${added.stderr}`)
  return added.json().token as string
}

const openTeam = async (location: () => Promise<string>): Promise<Team> => {
  const db = await location()
  const tokens = { alice: addToken(db, "alice"), bob: addToken(db, "bob"), dana: addToken(db, "dana", "--admin") }
  const served = await startServe(db)
  const as: Team["as"] = (who, method, path, body, caller = who === "alice" ? ALICE : BOB) =>
    served.call(method, path, body, {
      authorization: `Bearer ${tokens[who]}`,
      "x-memledger-origin": caller.origin,
      "x-memledger-agent": caller.agent
    })
  const secret = (await as("alice", "POST", "/memories", { content: SECRET, scope: "global", category: "convention", visibility: "private" })).json()
  expect(secret).toMatchObject({ stored: true })
  const shared = (await as("alice", "POST", "/memories", { content: SHARED, scope: "global", category: "convention" })).json()
  expect(shared).toMatchObject({ stored: true })
  return { served, tokens, secret: secret.id, shared: shared.id, as }
}

afterAll(async () => {
  stopAllServers()
  await dropTestDatabases()
})

for (const [storeName, location] of STORE_LOCATIONS) {
  describe(`a private memory on a team server (${storeName})`, () => {
    let team: Team
    beforeAll(async () => {
      team = await openTeam(location)
    })

    /**
     * Neither the text nor the id of alice's private memory is anywhere in `answer` ("blue
     * cluster" is in her memory alone; bob's own queries say "zanzibar", and are his to see).
     */
    const hidden = (answer: Answer) => {
      expect(answer.text).not.toContain("blue cluster")
      expect(answer.text).not.toContain(team.secret)
    }
    const shown = (answer: Answer) => {
      expect(answer.status).toBe(200)
      expect(answer.text).toContain(team.secret)
    }

    test("search and why: alice finds it, bob does not (nor among why's left-out matches)", async () => {
      shown(await team.as("alice", "POST", "/search", { query: "zanzibar preview deploys" }))
      const bobSearch = await team.as("bob", "POST", "/search", { query: "zanzibar preview deploys" })
      expect(bobSearch.status).toBe(200)
      // The shared memory beside it still answers bob: the search ran, only the private one is out.
      expect(bobSearch.json().results.map((r: { id: string }) => r.id)).toContain(team.shared)
      hidden(bobSearch)
      shown(await team.as("alice", "POST", "/why", { query: "zanzibar" }))
      const bobWhy = await team.as("bob", "POST", "/why", { query: "zanzibar" })
      expect(bobWhy.status).toBe(200)
      hidden(bobWhy)
    })

    test("context: with a query and at session start", async () => {
      shown(await team.as("alice", "POST", "/context", { query: "zanzibar preview deploys" }))
      shown(await team.as("alice", "POST", "/context", {}))
      for (const body of [{ query: "zanzibar preview deploys" }, {}]) {
        const answer = await team.as("bob", "POST", "/context", body)
        expect(answer.status).toBe(200)
        hidden(answer)
      }
    })

    test("show, list, record and cues: bob gets 404 and an empty list where alice gets it", async () => {
      shown(await team.as("alice", "GET", `/memories/${team.secret}`))
      shown(await team.as("alice", "GET", "/memories?all=true"))
      expect((await team.as("alice", "GET", `/memories/${team.secret}`)).json()).toMatchObject({ private: true })
      for (const path of [`/memories/${team.secret}`, `/memories/${team.secret.slice(0, 8)}`, `/memories/${team.secret}/record`, `/memories/${team.secret}/cues`]) {
        const answer = await team.as("bob", "GET", path)
        expect(answer.status, path).toBe(404)
      }
      for (const path of ["/memories", "/memories?all=true", "/memories?origin=claude-code%3Asession%2Falice-1"]) {
        const answer = await team.as("bob", "GET", path)
        expect(answer.status, path).toBe(200)
        hidden(answer)
      }
    })

    test("writes: bob can neither confirm, edit, forget, supersede nor report on it", async () => {
      const tries: Array<[string, string, unknown]> = [
        ["POST", `/memories/${team.secret}/confirm`, {}],
        ["PATCH", `/memories/${team.secret}`, { content: "overwritten" }],
        ["POST", `/memories/${team.secret}/forget`, {}],
        ["POST", `/memories/${team.shared}/supersede`, { by: team.secret }],
        ["POST", "/outcomes", { memory_ids: [team.secret], outcome: "failed" }]
      ]
      for (const [method, path, body] of tries) {
        const answer = await team.as("bob", method, path, body)
        expect(answer.status, `${method} ${path}`).toBe(404)
        // The answer names the id bob gave, and no more.
        expect(answer.json()).toMatchObject({ error: "MemoryNotFound" })
        expect(answer.text).not.toContain("blue cluster")
      }
      expect((await team.as("alice", "GET", `/memories/${team.secret}`)).json()).toMatchObject({ content: SECRET, confirmations: 1, forgotten: false })
    })

    test("log and export: no event of it reaches bob, page by page, nor by memory", async () => {
      const alicesLog = await team.as("alice", "GET", "/events?limit=1000")
      shown(alicesLog)
      expect(alicesLog.json().events.find((e: { payload: { memoryId?: string } }) => e.payload?.memoryId === team.secret)).toMatchObject({
        author: "alice"
      })
      // The whole log, a page of one event at a time, as an export through the server reads it.
      let after = 0
      const seen: string[] = []
      for (;;) {
        const page = await team.as("bob", "GET", `/events?after=${after}&limit=1`)
        expect(page.status).toBe(200)
        hidden(page)
        const { events, next } = page.json()
        seen.push(...events.map((e: { id: string }) => e.id))
        if (next === null) break
        after = next
      }
      expect(seen.length).toBeGreaterThan(0)
      expect((await team.as("bob", "GET", `/events?memory=${team.secret}`)).status).toBe(404)
      hidden(await team.as("bob", "GET", "/events?newest_first=true&limit=3"))
    })

    test("conversations and the overview: the conversation that holds it is alice's alone", async () => {
      const mine = await team.as("alice", "GET", "/conversations")
      expect(mine.text).toContain(ALICE.origin)
      const theirs = await team.as("bob", "GET", "/conversations")
      expect(theirs.status).toBe(200)
      expect(theirs.text).not.toContain(ALICE.origin)
      expect((await team.as("alice", "GET", "/overview")).text).toContain(ALICE.origin)
      const overview = await team.as("bob", "GET", "/overview")
      expect(overview.status).toBe(200)
      expect(overview.text).not.toContain(ALICE.origin)
      hidden(overview)
    })

    test("tasks: a recall under a task names it for alice only", async () => {
      await team.as("alice", "POST", "/search", { query: "zanzibar preview deploys", task: "ship-zanzibar" })
      const hers = await team.as("alice", "GET", "/tasks")
      shown(hers)
      expect(hers.text).toContain("ship-zanzibar")
      const tasks = await team.as("bob", "GET", "/tasks")
      expect(tasks.status).toBe(200)
      hidden(tasks)
      // The only event naming the task concerns her private memory: bob is not told of the task either.
      expect(tasks.text).not.toContain("ship-zanzibar")
    })

    test("learned cues: what alice's conversation taught it finds it for her, not for bob", async () => {
      // A recall that did not find it, then an outcome that says it worked: the query becomes its cue.
      await team.as("alice", "POST", "/search", { query: "kumquat rollout checklist" })
      expect((await team.as("alice", "POST", "/outcomes", { memory_ids: [team.secret], outcome: "worked" })).status).toBe(200)
      const cues = (await team.as("alice", "GET", `/memories/${team.secret}/cues`)).json()
      expect(cues.cues.map((c: { text: string }) => c.text)).toContain("kumquat rollout checklist")
      shown(await team.as("alice", "POST", "/why", { query: "kumquat rollout checklist" }))
      const bobWhy = await team.as("bob", "POST", "/why", { query: "kumquat rollout checklist" })
      expect(bobWhy.status).toBe(200)
      hidden(bobWhy)
      hidden(await team.as("bob", "POST", "/search", { query: "kumquat rollout checklist" }))
    })

    test("the live log streams alice's events to her, and none of them to bob", async () => {
      const read = async (who: "alice" | "bob") => {
        const controller = new AbortController()
        const response = await fetch(`${team.served.url}/events/live?after=0`, { headers: { authorization: `Bearer ${team.tokens[who]}` }, signal: controller.signal })
        expect(response.status).toBe(200)
        const reader = response.body!.getReader()
        let text = ""
        const deadline = Date.now() + 3_000
        // Everything after 0 is sent at once; a little more time lets a straggler through.
        while (Date.now() < deadline) {
          const chunk = await Promise.race([reader.read(), new Promise<undefined>((r) => setTimeout(() => r(undefined), 700))])
          if (chunk === undefined || chunk.done) break
          text += new TextDecoder().decode(chunk.value)
        }
        controller.abort()
        return text
      }
      expect(await read("alice")).toContain(team.secret)
      const bobs = await read("bob")
      expect(bobs).toContain(team.shared)
      expect(bobs).not.toContain(team.secret)
      expect(bobs).not.toContain("blue cluster")
    })

    test("MCP over HTTP: recall, get_memory and explain as bob leave it out", async () => {
      const connect = async (who: "alice" | "bob") => {
        const client = new Client({ name: "team-test", version: "1.0.0" })
        await client.connect(new StreamableHTTPClientTransport(new URL(`${team.served.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${team.tokens[who]}` } } }))
        return client
      }
      const text = (result: unknown) => JSON.stringify(result as CallToolResult)
      const alice = await connect("alice")
      expect(text(await alice.callTool({ name: "recall", arguments: { query: "zanzibar preview deploys" } }))).toContain(team.secret)
      await alice.close()
      const bob = await connect("bob")
      const recalled = text(await bob.callTool({ name: "recall", arguments: { query: "zanzibar preview deploys" } }))
      expect(recalled).toContain(team.shared)
      // Not found, as if there were none: the answer names the id bob gave, and nothing of the memory.
      const got = (await bob.callTool({ name: "get_memory", arguments: { id: team.secret } })) as CallToolResult
      expect(got.isError).toBe(true)
      expect(text(got)).toContain("no memory has the id")
      expect(text(got)).not.toContain("blue cluster")
      for (const answer of [
        recalled,
        text(await bob.callTool({ name: "explain", arguments: { query: "zanzibar" } })),
        text(await bob.callTool({ name: "get_context", arguments: {} }))
      ]) {
        expect(answer).not.toContain("blue cluster")
        expect(answer).not.toContain(team.secret)
      }
      await bob.close()
    })

    test("captured from a conversation, it stays its author's until she accepts it in review", async () => {
      const captured = (
        await team.as("alice", "POST", "/memories", {
          content: "Never run the yarrow migrations on Fridays",
          scope: "global",
          source: "observed",
          capture: { kind: "prompt-rule", span: "a".repeat(64), evidence: "Never run the yarrow migrations on Fridays" }
        })
      ).json()
      expect(captured).toMatchObject({ stored: true })
      expect((await team.as("alice", "GET", `/memories/${captured.id}`)).json()).toMatchObject({ private: true, status: "tentative" })
      expect((await team.as("bob", "GET", `/memories/${captured.id}`)).status).toBe(404)
      expect((await team.as("alice", "POST", "/memories/review", { accept: [captured.id] })).status).toBe(200)
      const accepted = await team.as("bob", "GET", `/memories/${captured.id}`)
      expect(accepted.status).toBe(200)
      expect(accepted.json()).toMatchObject({ status: "confirmed" })
      expect(accepted.json().private).toBeUndefined()
    })

    test("stats: a new private memory of alice's counts in her totals, and changes none of bob's, on every surface", async () => {
      const statsOf = async (who: "alice" | "bob") => {
        const answer = await team.as(who, "GET", "/stats")
        expect(answer.status).toBe(200)
        // The store's size grows with any write: what is compared is what stats counts.
        const { bytes: _bytes, ...counts } = answer.json()
        return counts
      }
      const before = { alice: await statsOf("alice"), bob: await statsOf("bob") }
      const caller = { origin: "claude-code:session/alice-stats", agent: "claude-code" }
      const body = { content: "Canary releases of the ferret service wait for the walrus dashboard", scope: "project", project: "github.com/acme/ferret", category: "workaround", visibility: "private" }
      expect((await team.as("alice", "POST", "/memories", body, caller)).json()).toMatchObject({ stored: true })

      const bob = await statsOf("bob")
      expect(bob).toEqual(before.bob)
      const alice = await statsOf("alice")
      expect(alice).toMatchObject({
        events: before.alice.events + 1,
        memories: { ...before.alice.memories, live: before.alice.memories.live + 1 },
        byCategory: { ...before.alice.byCategory, workaround: (before.alice.byCategory.workaround ?? 0) + 1 },
        projects: before.alice.projects + 1,
        conversations: { ...before.alice.conversations, total: before.alice.conversations.total + 1 }
      })

      // The MCP tool and the command line through the server count as REST does, for each of them.
      const mcp = async (who: "alice" | "bob") => {
        const client = new Client({ name: "team-test", version: "1.0.0" })
        await client.connect(new StreamableHTTPClientTransport(new URL(`${team.served.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${team.tokens[who]}` } } }))
        const result = (await client.callTool({ name: "stats", arguments: {} })) as CallToolResult
        await client.close()
        return result.structuredContent as { events: number; memories: { live: number } }
      }
      const cli = (who: "alice" | "bob") => {
        const run = mem(["stats", "--json"], { env: { MEMLEDGER_URL: team.served.url, MEMLEDGER_TOKEN: team.tokens[who] } })
        expect(run.code, run.stderr).toBe(0)
        return run.json() as { events: number; memories: { live: number } }
      }
      for (const [who, expected] of [["alice", alice], ["bob", bob]] as const) {
        for (const other of [await mcp(who), cli(who)]) {
          expect(other.events, who).toBe(expected.events)
          expect(other.memories, who).toEqual(expected.memories)
        }
      }
    })

    // Last: bob then holds a copy of her text, which the checks above would find.
    test("near-duplicates and restatements: bob's write neither lists nor confirms it", async () => {
      // Alice's own near-duplicate is stopped by her private memory...
      const near = "Zanzibar preview deploys use the blue cluster"
      const hers = (await team.as("alice", "POST", "/memories", { content: near, scope: "global" })).json()
      expect(hers).toMatchObject({ stored: false, reason: "similar memories exist" })
      expect(hers.similar.map((s: { id: string }) => s.id)).toContain(team.secret)
      // The very same text, said by bob, is a memory of his own: alice's is not confirmed, nor named.
      const restated = await team.as("bob", "POST", "/memories", { content: SECRET, scope: "global", category: "convention" })
      expect(restated.json()).toMatchObject({ stored: true })
      expect(restated.json().id).not.toBe(team.secret)
      expect((await team.as("alice", "GET", `/memories/${team.secret}`)).json().confirmations).toBe(1)
      // Bob's near-duplicate is stopped by his own copy, never by hers.
      const his = (await team.as("bob", "POST", "/memories", { content: near, scope: "global" })).json()
      expect(his).toMatchObject({ stored: false, reason: "similar memories exist" })
      expect(his.similar.map((s: { id: string }) => s.id)).toEqual([restated.json().id])
    })
  })
}
