/**
 * Resources and the prompt through a real stdio client: memories and the current project's
 * context are listed and readable by URI, and `recall_context` hands the session context over
 * as a user message.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callChecked, connectStdio, freshDb, projectFolder, type StdioClient } from "./support.js"

let server: StdioClient
let tools: Tool[]
let id: string

beforeAll(async () => {
  server = await connectStdio(freshDb(), { cwd: projectFolder() })
  tools = (await server.client.listTools()).tools
  const stored = await callChecked(server.client, tools, "remember", { content: "Deploy with fly deploy --strategy bluegreen", category: "command" })
  id = String(stored["id"])
  await callChecked(server.client, tools, "remember", { content: "Never commit .env files; use doppler for secrets", category: "convention", scope: "global" })
})
afterAll(() => server.close())

describe("resources", () => {
  it("lists the current project's context and the recent memories, and offers both templates", async () => {
    const { resources } = await server.client.listResources()
    expect(resources[0]).toMatchObject({ uri: "memledger://context/github.com%2Facme%2Fshop", mimeType: "text/markdown" })
    expect(resources.map((r) => r.uri)).toContain(`memledger://memory/${id}`)
    expect(resources).toHaveLength(3)
    const { resourceTemplates } = await server.client.listResourceTemplates()
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["memledger://memory/{id}", "memledger://context/{project}"])
  })

  it("reads a memory as JSON, by full id or prefix", async () => {
    const read = await server.client.readResource({ uri: `memledger://memory/${id.slice(0, 12)}` })
    const content = read.contents[0]
    expect(content).toMatchObject({ mimeType: "application/json" })
    expect(JSON.parse(String(content && "text" in content ? content.text : ""))).toMatchObject({ id, content: "Deploy with fly deploy --strategy bluegreen" })
  })

  it("reads a project's context as the text get_context builds", async () => {
    const read = await server.client.readResource({ uri: "memledger://context/github.com%2Facme%2Fshop" })
    const text = String(read.contents[0] && "text" in read.contents[0] ? read.contents[0].text : "")
    expect(text).toContain("## Memories from memledger")
    expect(text).toContain("doppler")
  })

  it("answers an unknown memory or scheme with a JSON-RPC error, and keeps serving", async () => {
    await expect(server.client.readResource({ uri: "memledger://memory/ZZZZZZZZ" })).rejects.toMatchObject({ code: -32002, message: expect.stringContaining("call recall") })
    await expect(server.client.readResource({ uri: "memledger://memory/x" })).rejects.toMatchObject({ code: -32602 })
    await expect(server.client.readResource({ uri: "https://example.com/" })).rejects.toMatchObject({ code: -32002 })
    expect((await server.client.listResources()).resources.length).toBe(3)
  })
})

describe("the recall_context prompt", () => {
  it("is listed with its optional query, and returns the session context as a user message", async () => {
    const { prompts } = await server.client.listPrompts()
    expect(prompts).toEqual([expect.objectContaining({ name: "recall_context", arguments: [expect.objectContaining({ name: "query", required: false })] })])
    const prompt = await server.client.getPrompt({ name: "recall_context", arguments: { query: "how do we deploy" } })
    expect(prompt.messages).toHaveLength(1)
    expect(prompt.messages[0]).toMatchObject({ role: "user", content: { type: "text", text: expect.stringContaining("fly deploy") } })
    const blank = await server.client.getPrompt({ name: "recall_context", arguments: { query: "" } })
    expect(blank.messages[0]?.content).toMatchObject({ text: expect.stringContaining("doppler") })
    await expect(server.client.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: -32602 })
  })
})
