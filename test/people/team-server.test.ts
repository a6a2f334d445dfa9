/**
 * People on a team server, through a real `mem serve` process: a revoked token is refused on
 * REST, MCP over HTTP and the console's API from the next request on, and a live log it opened
 * is cut; what a token writes
 * records its name as the author; the server's own token still works, as the admin `owner`; an
 * agent's token never makes a rule; and other people's conversations are forgotten and purged
 * only with an admin's token.
 */
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterAll, afterEach, describe, expect, test } from "vitest"
import { mem, tempDir } from "../support/cli.js"
import { dropTestDatabases } from "../support/postgres.js"
import { STORE_LOCATIONS } from "../support/store-locations.js"
import { startServe, stopAllServers } from "../support/serve.js"

afterEach(stopAllServers)
afterAll(dropTestDatabases)

const addToken = (db: string, name: string, ...flags: string[]): string => {
  const added = mem(["--db", db, "token", "add", name, ...flags, "--json"])
  if (added.code !== 0) throw new Error(`mem token add ${name} failed: ${added.stderr}`)
  return added.json().token as string
}
const bearer = (token: string, caller: Record<string, string> = {}) => ({ authorization: `Bearer ${token}`, ...caller })

const connectMcp = async (url: string, token: string) => {
  const client = new Client({ name: "team-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: bearer(token) } }))
  return client
}


for (const [storeName, location] of STORE_LOCATIONS) {
  test(`a revoked token is refused on REST, MCP and the console's API from the next request on (${storeName})`, async () => {
    const db = await location()
    const token = addToken(db, "erin")
    const served = await startServe(db)
    // Without a token, the store's people make the server ask for one, loopback or not.
    expect((await served.call("GET", "/stats")).status).toBe(401)
    expect((await served.call("GET", "/stats", undefined, bearer(token))).status).toBe(200)
    expect((await served.call("GET", "/overview", undefined, bearer(token))).status).toBe(200)
    const client = await connectMcp(served.url, token)
    expect((await client.listTools()).tools.length).toBeGreaterThan(0)
    const live = await fetch(`${served.url}/events/live`, { headers: bearer(token) })
    expect(live.status).toBe(200)
    const stream = live.body!.getReader()

    expect(mem(["--db", db, "token", "revoke", "erin"]).code).toBe(0)
    // A live log opened before is cut within the server's next look at its token (every 5 s).
    const ended = (async () => {
      for (;;) if ((await stream.read().catch(() => ({ done: true }))).done) return true
    })()
    expect(await Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve(false), 12_000))])).toBe(true)
    for (const path of ["/stats", "/overview", "/memories", "/events/live"]) {
      const answer = await served.call("GET", path, undefined, bearer(token))
      expect(answer.status, path).toBe(401)
      expect(answer.json(), path).toMatchObject({ error: "Unauthorized" })
    }
    // The session opened before is refused as well: every request is checked, not the handshake.
    await expect(client.listTools()).rejects.toThrow()
    await expect(connectMcp(served.url, token)).rejects.toThrow()
    // The console's page holds no data and stays open; what it calls does not.
    expect((await served.call("GET", "/")).status).toBe(200)
  })
}

describe("a team server on SQLite", () => {
  test("what a token writes records its name; the server's own token acts as the admin owner", async () => {
    const db = join(tempDir(), "team.db")
    const alice = addToken(db, "alice")
    const serverToken = "the-servers-own-token-0123456789"
    const served = await startServe(db, { env: { MEMLEDGER_TOKEN: serverToken } })
    const a = (await served.call("POST", "/memories", { content: "Feature flags live in flags.yaml", scope: "global" }, bearer(alice))).json()
    const o = (await served.call("POST", "/memories", { content: "Releases are cut on Tuesdays", scope: "global" }, bearer(serverToken))).json()
    await served.call("POST", `/memories/${a.id}/confirm`, {}, bearer(serverToken))
    const events = (await served.call("GET", "/events", undefined, bearer(serverToken))).json().events as Array<{ author?: string; payload: { memoryId?: string } }>
    expect(events.map((e) => [e.payload.memoryId, e.author])).toEqual([
      [a.id, "alice"],
      [o.id, "owner"],
      [a.id, "owner"]
    ])
    await served.stop()
    // The store verifies, and an export carries the authors.
    expect(mem(["--db", db, "verify", "--json"]).json()).toMatchObject({ ok: true })
    const file = join(tempDir(), "log.jsonl")
    expect(mem(["--db", db, "export", file]).code).toBe(0)
    const target = join(tempDir(), "replayed.db")
    expect(mem(["--db", target, "replay", file, "--json"]).json()).toEqual({ events: 3 })
    const replayed = mem(["--db", target, "log", "--json"]).json() as Array<{ seq: number; author?: string }>
    expect(replayed.sort((x, y) => x.seq - y.seq).map((e) => e.author)).toEqual(["alice", "owner", "owner"])
  })

  test("an agent's token never makes a rule; a person's token does", async () => {
    const db = join(tempDir(), "team.db")
    const person = addToken(db, "frank")
    const agent = addToken(db, "frank", "--agent")
    const served = await startServe(db)
    const rule = (content: string, token: string, caller: Record<string, string> = {}) =>
      served.call("POST", "/memories", { content, scope: "global", category: "convention" }, bearer(token, caller))
    await rule("Commit messages say why, not what", person)
    // Naming itself as a person (origin and agent "rest") does not make an agent's token one.
    await rule("Every migration has a down step", agent, { "x-memledger-origin": "rest", "x-memledger-agent": "rest" })
    await rule("Tests never touch the network", agent)
    const context = (await served.call("POST", "/context", {}, bearer(person))).json().text as string
    const rules = context.split("### Relevant memories")[0]!
    expect(rules).toContain("### Rules (confirmed)")
    expect(rules).toContain("Commit messages say why")
    expect(rules).not.toContain("down step")
    expect(rules).not.toContain("network")
    const log = (await served.call("GET", "/events", undefined, bearer(person))).json().events as Array<{ author: string; agent: string }>
    expect(log.map((e) => [e.author, e.agent])).toEqual([
      ["frank", "rest"],
      ["frank", "agent-token"],
      ["frank", "agent-token"]
    ])
    // The person's confirmation makes the agent's memory a rule.
    const agents = (await served.call("GET", "/memories", undefined, bearer(person))).json().memories.find((m: { content: string }) => m.content.includes("network"))
    await served.call("POST", `/memories/${agents.id}/confirm`, {}, bearer(person))
    expect(((await served.call("POST", "/context", {}, bearer(person))).json().text as string).split("### Relevant memories")[0]).toContain("network")
  })

  test("forgetting and purging other people's conversations takes an admin's token", async () => {
    const db = join(tempDir(), "team.db")
    const grace = addToken(db, "grace")
    const heidi = addToken(db, "heidi")
    const admin = addToken(db, "ivan", "--admin")
    const served = await startServe(db)
    const as = (token: string, origin: string) => bearer(token, { "x-memledger-origin": origin, "x-memledger-agent": "codex" })
    await served.call("POST", "/memories", { content: "Grace's note on the queue", scope: "global" }, as(grace, "codex:thread/grace"))
    await served.call("POST", "/memories", { content: "Heidi's note on the cache", scope: "global" }, as(heidi, "codex:thread/heidi"))

    const refused = await served.call("POST", "/conversations/forget", { origin: "codex:thread/grace" }, bearer(heidi))
    expect(refused.status).toBe(403)
    expect(refused.json()).toMatchObject({ error: "NotPermitted" })
    // Her own conversation she may forget, and restore.
    expect((await served.call("POST", "/conversations/forget", { origin: "codex:thread/heidi" }, bearer(heidi))).json()).toMatchObject({ changed: true })
    expect((await served.call("POST", "/conversations/restore", { origin: "codex:thread/heidi" }, bearer(heidi))).json()).toMatchObject({ changed: true })
    // An admin may forget anyone's; then only an admin may purge it.
    expect((await served.call("POST", "/conversations/forget", { origin: "codex:thread/grace" }, bearer(admin))).json()).toMatchObject({ changed: true })
    expect((await served.call("POST", "/purge", { yes: true }, bearer(heidi))).status).toBe(403)
    expect((await served.call("POST", "/purge", { yes: true, memories: true }, bearer(grace))).status).toBe(403)
    expect((await served.call("POST", "/purge", { yes: true }, bearer(grace))).json()).toMatchObject({ done: true, conversations: ["codex:thread/grace"] })
    // Restoring someone else's conversation is an admin's too.
    await served.call("POST", "/conversations/forget", { origin: "codex:thread/heidi" }, bearer(heidi))
    expect((await served.call("POST", "/conversations/restore", { origin: "codex:thread/heidi" }, bearer(grace))).status).toBe(403)
    expect((await served.call("POST", "/conversations/restore", { origin: "codex:thread/heidi" }, bearer(admin))).json()).toMatchObject({ changed: true })
  })

  test("a private memory needs a person: the store's own command line cannot write one", () => {
    const db = join(tempDir(), "m.db")
    const refused = mem(["--db", db, "add", "Only mine", "--global", "--private", "--json"])
    expect(refused.code).toBe(1)
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: "InvalidInput" })
    expect(JSON.parse(refused.stderr).message).toMatch(/private to a person/)
  })
})
