/**
 * Eight agents, eight `mem mcp` processes, one store file: all write and
 * recall at once, no write is lost or doubled, and each sees what the others wrote.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, describe, expect, it } from "vitest"
import { callChecked, connectStdio, freshDb, type StdioClient } from "./support.js"

const CLIENTS = 8
const WRITES_PER_CLIENT = 6

/** Words no other memory shares, so the near-duplicate check never holds a write back. */
const word = (client: number, n: number) => `zeta${client}q${n}v${(client * 31 + n * 7).toString(36)}`
const content = (client: number, n: number) => `${word(client, n)} ${word(client, n)}b ${word(client, n)}c`

const open: StdioClient[] = []
afterAll(() => Promise.all(open.map((c) => c.close())))

describe("eight MCP clients on one store", () => {
  it("lose no write, and each finds every other client's memories", async () => {
    const db = freshDb()
    const clients = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => connectStdio(db, { name: `agent-${i}` })))
    open.push(...clients)
    const tools: Tool[] = (await clients[0]!.client.listTools()).tools

    // Every client writes its memories while recalling the others' as it goes.
    const written = await Promise.all(
      clients.map(async (c, i) => {
        const ids: string[] = []
        for (let n = 0; n < WRITES_PER_CLIENT; n++) {
          const stored = await callChecked(c.client, tools, "remember", { content: content(i, n), scope: "global" })
          expect(stored["stored"]).toBe(true)
          ids.push(String(stored["id"]))
          await callChecked(c.client, tools, "recall", { query: word((i + 1) % CLIENTS, n) })
        }
        return ids
      })
    )
    const all = written.flat()
    expect(new Set(all).size).toBe(CLIENTS * WRITES_PER_CLIENT)

    // Once all are done, every client finds one memory of every other, by its own words.
    await Promise.all(
      clients.map(async (c, i) => {
        for (let other = 0; other < CLIENTS; other++) {
          if (other === i) continue
          const n = (i + other) % WRITES_PER_CLIENT
          const found = await callChecked(c.client, tools, "recall", { query: word(other, n), limit: 3 })
          expect((found["results"] as { id: string; agent: string }[])[0]).toMatchObject({ id: written[other]![n], agent: `agent-${other}` })
        }
      })
    )

    const stats = await callChecked(clients[3]!.client, tools, "stats")
    expect(stats["memories"]).toMatchObject({ live: CLIENTS * WRITES_PER_CLIENT })
    expect(stats["conversations"]).toMatchObject({ total: CLIENTS })
  })
})
