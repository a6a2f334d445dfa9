/**
 * The Streamable HTTP handler through the SDK's `StreamableHTTPClientTransport`, over a real
 * socket: sessions open on initialize and end on DELETE or close, each session records writes
 * under its own id, the project comes from the `x-memledger-project` header, and requests that
 * name no session or a dead one are refused without leaving one behind.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeMcpWebHandler, type McpWebHandler } from "../../src/adapters/mcp/http.js"
import { operationsRuntime, type OperationsRuntime } from "../../src/adapters/mcp/runtime.js"
import { until } from "../support/waiting.js"
import { callChecked, freshDb, TOOL_NAMES } from "./support.js"
import { serveWeb, type WebServer } from "./web-bridge.js"

let runtime: OperationsRuntime
let handler: McpWebHandler
let web: WebServer

beforeAll(async () => {
  runtime = operationsRuntime(freshDb())
  await runtime.ready()
  handler = makeMcpWebHandler({ run: runtime.run })
  web = await serveWeb(handler.handle)
})
afterAll(async () => {
  await handler.close()
  await web.close()
  await runtime.dispose()
})

const connect = async (name: string, headers: Record<string, string> = {}) => {
  const transport = new StreamableHTTPClientTransport(web.url, { requestInit: { headers } })
  const client = new Client({ name, version: "1.0.0" })
  await client.connect(transport)
  return { client, transport }
}

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(web.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(body)
  })

describe("MCP over Streamable HTTP", () => {
  it("serves the same tools, with writes under <client name>:<session id> and the project from the header", async () => {
    const { client, transport } = await connect("cursor", { "x-memledger-project": "github.com/acme/web" })
    const tools: Tool[] = (await client.listTools()).tools
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES])
    const stored = await callChecked(client, tools, "remember", { content: "The web app is deployed from the main branch by Vercel" })
    const memory = await callChecked(client, tools, "get_memory", { id: String(stored["id"]) })
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/)
    expect(memory).toMatchObject({ agent: "cursor", origin: `cursor:${transport.sessionId}`, project: "github.com/acme/web", scope: "project" })
    const recalled = await callChecked(client, tools, "recall", { query: "how is the web app deployed" })
    expect(recalled).toMatchObject({ project: "github.com/acme/web", results: [{ id: stored["id"] }] })
    await client.close()
  })

  it("keeps one session per client, ends it on DELETE, and refuses its id afterwards with 404", async () => {
    const before = handler.sessionCount()
    const first = await connect("codex")
    const second = await connect("codex")
    expect(handler.sessionCount()).toBe(before + 2)
    const tools = (await first.client.listTools()).tools

    // No project header: no current project, so the memory is global.
    const stored = await callChecked(second.client, tools, "remember", { content: "Every service exposes /healthz for the load balancer" })
    const memory = await callChecked(first.client, tools, "get_memory", { id: String(stored["id"]) })
    expect(memory).toMatchObject({ scope: "global", project: null, origin: `codex:${second.transport.sessionId}` })

    const ended = first.transport.sessionId!
    await first.transport.terminateSession()
    expect(handler.sessionCount()).toBe(before + 1)
    const stale = await post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": ended, "mcp-protocol-version": "2025-06-18" })
    expect(stale.status).toBe(404)
    await first.client.close()
    await second.client.close()
  })

  it("refuses a request that names no session unless it is an initialize, and keeps nothing for it", async () => {
    const before = handler.sessionCount()
    const response = await post({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    expect(response.status).toBe(400)
    expect(handler.sessionCount()).toBe(before)
    const get = await fetch(web.url, { headers: { accept: "text/event-stream" } })
    expect(get.status).toBe(400)
    expect(handler.sessionCount()).toBe(before)
  })

  it("closes a session left idle, since many clients never send DELETE", async () => {
    const local = makeMcpWebHandler({ run: runtime.run, idleTimeoutMs: 200 })
    const server = await serveWeb(local.handle)
    try {
      const client = new Client({ name: "opencode", version: "1" })
      await client.connect(new StreamableHTTPClientTransport(server.url))
      expect(local.sessionCount()).toBe(1)
      await until(() => local.sessionCount() === 0, "the idle session to be closed")
      await client.close()
    } finally {
      await local.close()
      await server.close()
    }
  })

  it("closes every session on close()", async () => {
    const local = makeMcpWebHandler({ run: runtime.run })
    const server = await serveWeb(local.handle)
    try {
      const transport = new StreamableHTTPClientTransport(server.url)
      const client = new Client({ name: "windsurf", version: "1" })
      await client.connect(transport)
      expect(local.sessionCount()).toBe(1)
      await local.close()
      expect(local.sessionCount()).toBe(0)
      await client.close()
    } finally {
      await server.close()
    }
  })
})
