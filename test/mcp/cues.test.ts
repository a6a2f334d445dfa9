/**
 * Cues and further phrasings through a real MCP client over stdio (`mem mcp` as a child
 * process): remember stores written cues, recall and get_context search with `also`, recall's
 * text says how much of the query each result answers and through which cue, and the new
 * inputs hold to the limits they advertise.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { describe, expect, it } from "vitest"
import { eventCount, projectFolder, serverForFile, textOf, type ToolName } from "./support.js"

const server = serverForFile({ name: "claude-code", cwd: projectFolder() })
const { call } = server

const raw = async (name: ToolName, args: Record<string, unknown>) => (await server.client.callTool({ name, arguments: args })) as CallToolResult
const toolNamed = (name: ToolName) => server.tools.find((t) => t.name === name)!
const property = (name: ToolName, field: string) => (toolNamed(name).inputSchema.properties as Record<string, unknown>)[field]

describe("the new inputs", () => {
  it("are advertised with their limits: 5 cues of 1 to 400 characters, 5 phrasings of 1 to 10,000", () => {
    expect(property("remember", "cues")).toMatchObject({ type: "array", maxItems: 5, items: { type: "string", minLength: 1, maxLength: 400 } })
    for (const name of ["recall", "explain", "get_context"] as const) {
      expect(property(name, "also"), name).toMatchObject({ type: "array", maxItems: 5, items: { type: "string", minLength: 1, maxLength: 10_000 } })
    }
  })

  it("are explained to the agent: cues worded as someone would ask, also in the words a memory would use", () => {
    expect(toolNamed("remember").description).toMatch(/2 or 3 cues/)
    expect(toolNamed("remember").description).toMatch(/questions or phrasings rather than keywords/)
    for (const name of ["recall", "get_context"] as const) {
      expect(toolNamed(name).description, name).toMatch(/in also, the words a stored memory would likely use \(the technical terms|also the words a stored memory would likely use \(the technical terms/)
    }
  })

  it("refuse 6 cues, a cue of 33 words and 6 phrasings with a result the model can read, writing nothing", async () => {
    const before = await eventCount(server.client)
    const sixCues = await raw("remember", { content: "Six cues are too many for one memory", cues: ["a", "b", "c", "d", "e", "f"] })
    expect(sixCues.isError).toBe(true)
    expect(textOf(sixCues)).toMatch(/invalid arguments for remember:\ncues: 6 cues; a memory takes at most 5\n/)
    const longCue = await raw("remember", { content: "A cue of thirty-three words is too long", cues: [Array.from({ length: 33 }, (_, i) => `w${i}`).join(" ")] })
    expect(longCue.isError).toBe(true)
    expect(textOf(longCue)).toMatch(/a cue is at most 32 words/)
    const longCueText = await raw("remember", { content: "A cue of 401 characters is too long", cues: ["x".repeat(401)] })
    expect(textOf(longCueText)).toMatch(/cues\.0: a cue is at most 400 characters/)
    for (const name of ["recall", "explain", "get_context"] as const) {
      const sixPhrasings = await raw(name, { query: "deploy", also: ["a", "b", "c", "d", "e", "f"] })
      expect(sixPhrasings.isError, name).toBe(true)
      expect(textOf(sixPhrasings), name).toMatch(new RegExp(`invalid arguments for ${name}:\\nalso: 6 further phrasings; at most 5\\n`))
    }
    expect(await eventCount(server.client)).toBe(before)
  })
})

describe("remember with cues, recall with also", () => {
  it("stores the written cues, and a recall worded like one finds the memory through it, saying so", async () => {
    const stored = await call("remember", {
      content: "Deploy with: make deploy ENV=prod",
      category: "command",
      cues: ["how do I ship to production?", "release the app"]
    })
    const id = String(stored["id"])
    expect(await call("get_memory", { id })).toMatchObject({ cues: ["how do I ship to production?", "release the app"] })

    const result = (await server.client.callTool({ name: "recall", arguments: { query: "how do I ship to production" } })) as CallToolResult
    const recalled = result.structuredContent as { results: Array<{ id: string; coverage?: Record<string, unknown> }> }
    expect(recalled.results[0]?.id).toBe(id)
    expect(recalled.results[0]?.coverage).toMatchObject({ source: "written cue", cue: "how do I ship to production?", phrasing: "how do I ship to production" })
    expect(textOf(result)).toMatch(/answers \d+% via written cue "how do I ship to production\?"/)
  })

  it("finds, with also, a memory only the second phrasing names, and says which phrasing answered", async () => {
    const stored = await call("remember", { content: "Flaky e2e suite: rerun playwright with --retries 2", category: "workaround" })
    const id = String(stored["id"])
    const query = "the browser checks keep failing at random"
    const alone = await call("recall", { query })
    expect((alone["results"] as { id: string }[]).map((r) => r.id)).not.toContain(id)

    const result = (await server.client.callTool({ name: "recall", arguments: { query, also: ["playwright flaky retries"] } })) as CallToolResult
    const found = (result.structuredContent as { results: Array<{ id: string; coverage?: Record<string, unknown> }> }).results
    expect(found.map((r) => r.id)).toContain(id)
    expect(found.find((r) => r.id === id)?.coverage).toMatchObject({ phrasing: "playwright flaky retries", source: "content" })
    expect(textOf(result)).toMatch(/answers \d+% of "playwright flaky retries"/)

    const context = await call("get_context", { query, also: ["playwright flaky retries"], budget: 400 })
    expect(context["included"]).toContain(id)
  })
})
