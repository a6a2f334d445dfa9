/**
 * MCP over Streamable HTTP as deployed: the SDK client against `/mcp` of a real `mem serve`
 * process, sharing the store with REST. Every tool is called and its structuredContent checked
 * against its advertised outputSchema; a write through MCP is seen through REST and back; with
 * a token, /mcp is behind the same guard as REST.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { afterEach, describe, expect, it } from "vitest"
import { startServe, stopAllServers } from "../support/serve.js"
import { callChecked, freshDb, TOOL_NAMES } from "./support.js"

afterEach(stopAllServers)

const connect = async (url: string, headers: Record<string, string> = {}) => {
  const client = new Client({ name: "serve-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }))
  return client
}

describe("mem serve /mcp", () => {
  it("serves every tool over Streamable HTTP, on the same store as REST", async () => {
    const served = await startServe(freshDb())
    const client = await connect(served.url, { "x-memledger-project": "github.com/acme/shop" })
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES])

    const stored = await callChecked(client, tools, "remember", { content: "Payments retries use the outbox table, never in-process queues" })
    expect(stored).toMatchObject({ stored: true })
    const id = String(stored["id"])
    const viaRest = (await served.call("GET", `/memories/${id}`)).json()
    expect(viaRest).toMatchObject({ id, project: "github.com/acme/shop", agent: "serve-test" })
    expect(viaRest.origin).toMatch(/^serve-test:/)

    const restAdded = (await served.call("POST", "/memories", { content: "Feature flags are read from LaunchDarkly at boot", scope: "global" })).json()
    const recalled = await callChecked(client, tools, "recall", { query: "feature flags launchdarkly" })
    expect((recalled["results"] as Array<{ id: string }>).map((r) => r.id)).toContain(restAdded.id)

    await callChecked(client, tools, "explain", { query: "outbox retries" })
    await callChecked(client, tools, "record_outcome", { memory_ids: [id], outcome: "worked" })
    await callChecked(client, tools, "get_context", { query: "payments retries" })
    await callChecked(client, tools, "get_memory", { id })
    await callChecked(client, tools, "stats")
    await callChecked(client, tools, "forget", { memory_id: id })
    expect((await served.call("GET", `/memories/${id}`)).json().forgotten).toBe(true)
    // Forgetting the whole conversation takes back the memory it added, as if never written.
    await callChecked(client, tools, "forget_conversation", { origin: String(viaRest.origin) })
    expect((await served.call("GET", `/memories/${id}`)).status).toBe(404)
    await client.close()
  })

  it("puts /mcp behind the token like every other route", async () => {
    const token = "a-test-token-of-enough-length-1234"
    const served = await startServe(freshDb(), { env: { MEMLEDGER_TOKEN: token } })
    await expect(connect(served.url)).rejects.toThrow()
    const client = await connect(served.url, { authorization: `Bearer ${token}` })
    expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length)
    await client.close()
  })
})
