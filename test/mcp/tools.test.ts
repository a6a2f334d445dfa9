/**
 * The MCP tools through a real client over stdio (`mem mcp` as a child process): the tool list
 * an agent sees, every tool's result against the schema it advertises, who a write is recorded
 * under, and failures that come back as results the model can read.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callChecked, connectStdio, freshDb, projectFolder, textOf, TOOL_NAMES, type StdioClient } from "./support.js"

let server: StdioClient
let tools: Tool[]

beforeAll(async () => {
  server = await connectStdio(freshDb(), { name: "claude-code", cwd: projectFolder() })
  tools = (await server.client.listTools()).tools
})
afterAll(() => server.close())

describe("the tool list", () => {
  it("offers exactly the ten tools, each with a title, a description, both schemas and every hint", () => {
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES])
    for (const tool of tools) {
      expect(tool.title, tool.name).toBeTruthy()
      expect(tool.description?.length, tool.name).toBeGreaterThan(80)
      expect(tool.inputSchema.type, tool.name).toBe("object")
      expect(tool.outputSchema?.type, tool.name).toBe("object")
      expect(JSON.stringify([tool.inputSchema, tool.outputSchema]), tool.name).not.toMatch(/\$ref|\$defs|\$schema/)
      expect(Object.keys(tool.annotations ?? {}).sort(), tool.name).toEqual(["destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint", "title"])
    }
  })

  it("marks lookups read-only, forgetting destructive, and nothing as reaching an open world", () => {
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]))
    for (const name of ["recall", "explain", "get_context", "get_memory", "stats"]) expect(hints[name]?.readOnlyHint, name).toBe(true)
    for (const name of ["remember", "record_outcome", "forget", "forget_conversation"]) expect(hints[name]?.readOnlyHint, name).toBe(false)
    for (const name of ["forget", "forget_conversation", "review"]) expect(hints[name]?.destructiveHint, name).toBe(true)
    for (const name of ["remember", "record_outcome"]) expect(hints[name]).toMatchObject({ destructiveHint: false, idempotentHint: false })
    expect(tools.every((t) => t.annotations?.openWorldHint === false)).toBe(true)
  })

  it("describes the fields agents type, in snake_case", () => {
    const fields = (name: string) => Object.keys((tools.find((t) => t.name === name)?.inputSchema.properties ?? {}) as object)
    expect(fields("remember")).toEqual(expect.arrayContaining(["content", "category", "scope", "project", "tags", "confirms", "supersedes", "distinct_from", "cues"]))
    for (const name of ["recall", "explain", "get_context"]) expect(fields(name), name).toContain("also")
    expect(fields("record_outcome")).toEqual(expect.arrayContaining(["memory_ids", "outcome", "task", "note"]))
    expect(fields("forget")).toContain("memory_id")
    expect(fields("forget_conversation")).toEqual(expect.arrayContaining(["origin", "undo"]))
    expect(fields("review")).toEqual(expect.arrayContaining(["accept", "reject"]))
    expect(fields("stats")).toEqual([])
  })
})

describe("every tool", () => {
  it("answers with structuredContent matching its advertised outputSchema and its Effect schema", async () => {
    const call = (name: (typeof TOOL_NAMES)[number], args: Record<string, unknown> = {}) => callChecked(server.client, tools, name, args)

    const stored = await call("remember", { content: "Run the integration tests with npm run test:int before pushing", category: "command", tags: ["tests"] })
    expect(stored).toMatchObject({ stored: true })
    const id = String(stored["id"])
    expect(await call("remember", { content: "run the integration tests with npm run test:int before pushing." })).toMatchObject({ stored: false, confirmed: true, id })
    const similar = await call("remember", { content: "Before pushing, run integration tests using npm run test:int" })
    expect(similar).toMatchObject({ stored: false, reason: "similar memories exist", resolve: "call remember again with confirms, supersedes or distinct_from" })
    const other = await call("remember", { content: "Before pushing, run integration tests using npm run test:int", distinct_from: id.slice(0, 12) })
    expect(other).toMatchObject({ stored: true })

    const recalled = await call("recall", { query: "integration tests before pushing", limit: 5 })
    expect(recalled).toMatchObject({ project: "github.com/acme/shop", mode: "keyword" })
    expect((recalled["results"] as { id: string }[]).map((r) => r.id)).toContain(id)

    expect(await call("record_outcome", { memory_ids: [id.slice(0, 12)], outcome: "worked", task: "beads:bd-7", note: "tests passed" })).toEqual({ memory_ids: [id], outcome: "worked", recorded: true })
    const memory = await call("get_memory", { id })
    expect(memory).toMatchObject({ id, category: "command", tags: ["tests"], confirmations: 2, project: "github.com/acme/shop", record: { workedCount: 1 } })

    const explained = await call("explain", { query: "integration tests", limit: 1 })
    expect((explained["results"] as unknown[]).length).toBe(1)
    expect((explained["leftOut"] as { stage: string }[]).map((x) => x.stage)).toContain("limit")

    const context = await call("get_context", { query: "tests", budget: 400 })
    expect(context["text"]).toContain(id.slice(0, 8))
    expect(context["tokens"] as number).toBeLessThanOrEqual(400)

    expect(await call("stats")).toMatchObject({ memories: { live: 2 }, outcomes: { worked: 1 } })
    expect(await call("forget", { memory_id: String(other["id"]), reason: "duplicate" })).toMatchObject({ forgotten: true, changed: true })
    expect(await call("forget", { memory_id: String(other["id"]) })).toMatchObject({ forgotten: true, changed: false })

    // A conversation of its own, so forgetting it leaves this session's memories alone.
    const aside = await call("remember", { content: "The staging database is reset every Sunday night", origin: "codex:thread/aside" })
    expect(await call("get_memory", { id: String(aside["id"]) })).toMatchObject({ origin: "codex:thread/aside", agent: "claude-code" })
    expect(await call("forget_conversation", { origin: "codex:thread/aside" })).toMatchObject({ origin: "codex:thread/aside", forgotten: true, changed: true, events: 1 })
    expect(((await call("recall", { query: "staging database reset" }))["results"] as unknown[]).length).toBe(0)
    expect(await call("forget_conversation", { origin: "codex:thread/aside", undo: true })).toMatchObject({ forgotten: false, changed: true })
    expect(((await call("recall", { query: "staging database reset" }))["results"] as { id: string }[])[0]?.id).toBe(aside["id"])
  })

  it("records writes under <client name>:<session> and the client name, unless the call names its origin", async () => {
    const stored = await callChecked(server.client, tools, "remember", { content: "Feature flags live in config/flags.yml", category: "architecture" })
    const memory = await callChecked(server.client, tools, "get_memory", { id: String(stored["id"]) })
    expect(memory["agent"]).toBe("claude-code")
    expect(memory["origin"]).toMatch(/^claude-code:[0-9a-f-]{36}$/)

    // Another process is another session.
    const second = await connectStdio(String((await callChecked(server.client, tools, "stats"))["path"]), { name: "claude-code" })
    try {
      const tools2 = (await second.client.listTools()).tools
      const other = await callChecked(second.client, tools2, "remember", { content: "Logs are shipped to Loki via promtail", scope: "global" })
      const otherMemory = await callChecked(second.client, tools2, "get_memory", { id: String(other["id"]) })
      expect(otherMemory["origin"]).toMatch(/^claude-code:/)
      expect(otherMemory["origin"]).not.toBe(memory["origin"])
    } finally {
      await second.close()
    }
  })

  it("turns an unknown id, an unknown tool and bad arguments into isError results that say what to do", async () => {
    const unknown = (await server.client.callTool({ name: "get_memory", arguments: { id: "ZZZZZZZZ" } })) as CallToolResult
    expect(unknown.isError).toBe(true)
    expect(textOf(unknown)).toMatch(/no memory has the id ZZZZZZZZ; call recall to find ids/)

    const noTool = (await server.client.callTool({ name: "remember_everything", arguments: {} })) as CallToolResult
    expect(noTool.isError).toBe(true)
    expect(textOf(noTool)).toContain("the tools are remember, recall,")

    const bad = (await server.client.callTool({ name: "recall", arguments: { query: 42, limit: 1000, colour: "red" } })) as CallToolResult
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toMatch(/invalid arguments for recall/)
    expect(textOf(bad)).toMatch(/query: Expected string, actual 42/)
    expect(textOf(bad)).toMatch(/limit: .*between\(1, 100\)|limit: .*1000/)
    expect(textOf(bad)).toMatch(/colour: is not a field of this tool/)
  })
})
