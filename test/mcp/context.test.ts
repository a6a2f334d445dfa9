/**
 * What get_context and the recall_context prompt give, through a real stdio client, and that
 * their descriptions and docs/mcp.md say so: without a query the project's confirmed rules come
 * first; with a query only the memories that answer it, so an unrelated query injects nothing,
 * not even the rules. Only a query that shows something is recorded as a MemoriesRecalled event.
 */
import { readFileSync } from "node:fs"
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callChecked, connectStdio, eventCount, freshDb, projectFolder, type StdioClient } from "./support.js"

const RULE = "Use pnpm, never npm, in this repository"
const DEPLOY = "Deploy with fly deploy --strategy bluegreen"

let server: StdioClient
let tools: Tool[]

beforeAll(async () => {
  const db = freshDb()
  const folder = projectFolder()
  // Said in one conversation, then again in another: a convention two conversations stated is
  // a standing rule (what one agent says alone, however often, is not).
  const earlier = await connectStdio(db, { cwd: folder })
  await callChecked(earlier.client, (await earlier.client.listTools()).tools, "remember", { content: RULE, category: "convention" })
  await earlier.close()
  server = await connectStdio(db, { cwd: folder })
  tools = (await server.client.listTools()).tools
  expect(await callChecked(server.client, tools, "remember", { content: RULE })).toMatchObject({ confirmed: true })
  await callChecked(server.client, tools, "remember", { content: DEPLOY, category: "command" })
})
afterAll(() => server.close())

describe("get_context", () => {
  it("without a query, puts the confirmed rules first, and records nothing", async () => {
    const before = await eventCount(server.client)
    const text = String((await callChecked(server.client, tools, "get_context"))["text"])
    expect(text.split("### Relevant memories")[0]).toContain(RULE)
    expect(text.indexOf(RULE)).toBeLessThan(text.indexOf(DEPLOY))
    expect(await eventCount(server.client)).toBe(before)
  })

  it("with a query, gives only what answers it (no rules), and records what it showed", async () => {
    const before = await eventCount(server.client)
    const text = String((await callChecked(server.client, tools, "get_context", { query: "deploy with fly bluegreen" }))["text"])
    expect(text).toContain(DEPLOY)
    expect(text).not.toContain(RULE)
    expect(await eventCount(server.client)).toBe(before + 1)
    const unrelated = await callChecked(server.client, tools, "get_context", { query: "kubernetes helm chart values" })
    expect(unrelated).toMatchObject({ text: "", tokens: 0 })
    expect(await eventCount(server.client)).toBe(before + 1)
  })

  it("says so in its description, the prompt's, and docs/mcp.md", async () => {
    const described = (text: string | undefined) => {
      expect(text).toMatch(/without a query, the project's confirmed rules/i)
      expect(text).toMatch(/with a query, only the memories that answer it/i)
    }
    described(tools.find((t) => t.name === "get_context")?.description)
    const { prompts } = await server.client.listPrompts()
    described(prompts.find((p) => p.name === "recall_context")?.description)
    const doc = readFileSync("docs/mcp.md", "utf8").replace(/\s+/g, " ")
    described(doc)
    expect(doc).not.toMatch(/recall and get_context are marked read-only although they append/)
  })
})
