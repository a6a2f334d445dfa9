/**
 * The REST routes the console calls, through a real `mem serve` on a store written in the past
 * (test/support/console-store.ts): the overview's counts, the list's cursor and filters, a
 * memory's record over time, the tasks the log names, the log by type, the live log as NDJSON
 * (with the token, which it needs like every call), and the page's own files: open without the
 * token, under a strict Content-Security-Policy. On every store: the store is written as SQLite
 * (through LedgerStore, below the port), and on PostgreSQL the same log is replayed into a new database.
 */
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { memAsync } from "../support/cli-async.js"
import { mem, tempDir } from "../support/cli.js"
import { buildConsoleStore, CONSOLE_ORIGINS } from "../support/console-store.js"
import { startServe, stopAllServers, type Served } from "../support/serve.js"
import { describeEachStore } from "../support/services.js"

const TOKEN = "console-api-token-0123456789abcdef"
const auth = { authorization: `Bearer ${TOKEN}` }

/** The SQLite store at `file`'s log, replayed into the new store at `location`. */
const replayedInto = (location: string, file: string): string => {
  const exported = join(tempDir(), "console.jsonl")
  for (const args of [["--db", file, "export", exported], ["--db", location, "replay", exported]]) {
    const run = mem(args)
    if (run.code !== 0) throw new Error(`mem ${args.join(" ")} failed: ${run.stderr}`)
  }
  return location
}

describeEachStore((store) => {
  let server: Served
  let db: string
  let ids: string[]

  beforeAll(async () => {
    const file = join(tempDir(), "console.db")
    ids = buildConsoleStore(file, Date.now())
    db = store.name === "SQLite" ? file : replayedInto(await store.fresh(), file)
    server = await startServe(db, { env: { MEMLEDGER_TOKEN: TOKEN } })
  })
  afterAll(stopAllServers)

  const get = async (path: string) => {
    const answer = await server.call("GET", path, undefined, auth)
    expect(answer.status, answer.text).toBe(200)
    return answer.json()
  }

  describe("the page and its files", () => {
    it("load without the token, under a CSP that allows only this server's scripts and styles", async () => {
      for (const path of ["/", "/console/app.js", "/console/app.css"]) {
        const answer = await server.call("GET", path)
        expect(answer.status, path).toBe(200)
        const csp = answer.headers.get("content-security-policy") ?? ""
        expect(csp).toContain("script-src 'self'")
        expect(csp).toContain("style-src 'self'")
        expect(csp).not.toContain("unsafe-inline")
      }
      expect((await server.call("GET", "/")).text).not.toMatch(/<script>|<style>|style=/)
    })

    it("while the data still needs it", async () => {
      expect((await server.call("GET", "/overview")).status).toBe(401)
      expect((await server.call("GET", "/events/live")).status).toBe(401)
      expect((await server.call("GET", "/console/../overview")).status).not.toBe(200)
    })
  })

  describe("GET /overview", () => {
    it("counts, outcomes per day, the gated memories and the chain", async () => {
      const o = await get("/overview")
      expect(o.memories).toEqual({ live: 8, confirmed: 8, tentative: 0, forgotten: 0, superseded: 0 })
      expect(o.byCategory.reduce((sum: number, c: { memories: number }) => sum + c.memories, 0)).toBe(8)
      expect(o.byProject).toEqual([{ name: null, memories: 8 }])
      // The outcomes of the last 30 days only, as the store was built: 3 failures, 3 + 2 successes,
      // 2 failures (the third is 30 days old: outside), 1 partial.
      const reported = o.outcomesByDay.reduce((sum: number, d: { worked: number; failed: number; partial: number }) => sum + d.worked + d.failed + d.partial, 0)
      expect(reported).toBe(11)
      expect(o.gated.memories.map((g: { id: string }) => g.id).sort()).toEqual([ids[0], ids[4]].sort())
      expect(o.chain.broken).toBeNull()
      expect(o.chain.head.seq).toBe(o.events)
    })
  })

  describe("GET /memories", () => {
    it("walks every memory once by cursor, newest first", async () => {
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await get(`/memories?limit=3${cursor === undefined ? "" : `&cursor=${cursor}`}`)
        seen.push(...page.memories.map((m: { id: string }) => m.id))
        cursor = page.next
        expect(page.more).toBe(cursor !== undefined)
      } while (cursor !== undefined)
      expect(seen).toEqual([...ids].reverse())
    })

    it("filters by tags (all of them), origin and agent", async () => {
      const byTags = await get("/memories?tags=deploy&tags=fly")
      expect(byTags.memories.map((m: { id: string }) => m.id)).toEqual([ids[1]])
      const byOrigin = await get(`/memories?origin=${encodeURIComponent(CONSOLE_ORIGINS.codex)}`)
      expect(byOrigin.memories.map((m: { id: string }) => m.id)).toEqual([ids[7], ids[4], ids[1]])
      const byAgent = await get("/memories?agent=cursor")
      expect(byAgent.memories.map((m: { id: string }) => m.id)).toEqual([ids[5], ids[2]])
    })

    it("refuses a cursor it did not give", async () => {
      expect((await server.call("GET", "/memories?cursor=abc", undefined, auth)).status).toBe(400)
    })
  })

  describe("GET /memories/{id}/record", () => {
    it("draws the record over time, ending at the record the memory shows now, with the gate", async () => {
      const r = await get(`/memories/${ids[0]}/record`)
      expect(r.outcomes).toHaveLength(6)
      expect(r.failureGate).toBeLessThan(0)
      const last = r.points[r.points.length - 1]
      expect(last.worked).toBeCloseTo(r.memory.record.worked, 6)
      expect(last.failed).toBeCloseTo(r.memory.record.failed, 6)
      expect(last.gated).toBe(true)
      // Before its failures it was not gated: the chart shows it crossing the gate.
      expect(r.points.some((p: { gated: boolean }) => !p.gated)).toBe(true)
    })

    it("leaves out the outcomes of a forgotten conversation, as the record does", async () => {
      // Another process, run without blocking this one: a blocked event loop would keep the
      // client from seeing the server close an idle connection, and reuse it.
      expect((await memAsync(["--db", db, "forget-conversation", CONSOLE_ORIGINS.codex])).code).toBe(0)
      try {
        const r = await get(`/memories/${ids[0]}/record`)
        expect(r.outcomes.filter((o: { counted: boolean }) => !o.counted)).toHaveLength(3)
        expect(r.points[r.points.length - 1].failed).toBe(0)
      } finally {
        expect((await memAsync(["--db", db, "forget-conversation", CONSOLE_ORIGINS.codex, "--undo"])).code).toBe(0)
      }
    })
  })

  describe("GET /tasks", () => {
    it("lists the tasks the log names, newest first, with what was recalled and the outcomes", async () => {
      const t = await get("/tasks")
      expect(t.tasks.map((x: { task: string }) => x.task)).toEqual(["claude:todo-3", "beads:bd-15", "beads:bd-12"])
      const bd12 = t.tasks[2]
      expect(bd12.recalled.map((m: { id: string }) => m.id)).toEqual([ids[1], ids[0]])
      expect(bd12.outcomes.map((o: { payload: { outcome: string } }) => o.payload.outcome)).toEqual(["worked"])
      expect(t.next).toBeNull()
      const paged = await get("/tasks?limit=1")
      expect(paged.tasks).toHaveLength(1)
      expect((await get(`/tasks?limit=5&before=${paged.next}`)).tasks.map((x: { task: string }) => x.task)).toEqual(["beads:bd-15", "beads:bd-12"])
    })
  })

  describe("GET /events", () => {
    it("filters by type", async () => {
      const page = await get("/events?types=MemoriesRecalled&types=MemoryAdded&limit=1000")
      expect(new Set(page.events.map((e: { type: string }) => e.type))).toEqual(new Set(["MemoriesRecalled", "MemoryAdded"]))
      expect(page.events).toHaveLength(11)
    })
  })

  describe("GET /events/live", () => {
    it("sends the events after `after`, then one another process appends, as NDJSON", async () => {
      const stop = new AbortController()
      const response = await fetch(`${server.url}/events/live?after=1`, { headers: auth, signal: stop.signal })
      expect(response.headers.get("content-type")).toContain("application/x-ndjson")
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
      const seen: Array<{ seq: number; type: string; payload: Record<string, unknown> }> = []
      let pending = ""
      const readUntil = async (done: () => boolean) => {
        while (!done()) {
          const { value } = await reader.read()
          pending += value ?? ""
          const lines = pending.split("\n")
          pending = lines.pop()!
          for (const line of lines) if (line !== "") seen.push(JSON.parse(line))
        }
      }
      const head = (await get("/overview")).events
      await readUntil(() => seen.length >= head - 1)
      expect(seen[0]!.seq).toBe(2)
      const added = await memAsync(["--db", db, "add", "Appended while the live log is read.", "--json"])
      expect(added.code, added.stderr).toBe(0)
      const started = Date.now()
      await readUntil(() => seen.some((e) => e.payload?.["content"] === "Appended while the live log is read."))
      expect(Date.now() - started).toBeLessThan(2000)
      stop.abort()
    })
  })
})
