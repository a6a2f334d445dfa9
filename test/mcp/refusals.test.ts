/**
 * How `mem mcp` refuses what it cannot do, through a real stdio client: arguments too deeply
 * nested to decode are a tool result the model can read (not a crashed request); protocol
 * errors carry a plain message (the client adds the "MCP error <code>:" prefix once); and a
 * remote `mem mcp` whose server refuses it or is down says so, rather than blaming the params.
 */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { MEM_BIN, tempDir } from "../support/cli.js"
import { unusedUrl } from "../support/rest-server.js"
import { startServe, stopAllServers } from "../support/serve.js"
import { connectStdio, freshDb, textOf, type StdioClient } from "./support.js"

let server: StdioClient

beforeAll(async () => {
  server = await connectStdio(freshDb())
})
afterAll(() => server.close())
afterEach(stopAllServers)

/** `{"a": {"a": ... "leaf" }}` as JSON text, `depth` objects deep: the SDK client's own JSON.stringify overflows on such a value. */
const nestedJson = (depth: number): string => `${'{"a":'.repeat(depth)}"leaf"${"}".repeat(depth)}`

/**
 * One `tools/call` sent as raw JSON-RPC text to `mem mcp` over stdio after the handshake; resolves
 * with the server's reply to it (parsed: replies nest no deeper than a tool result).
 */
interface RawReply {
  readonly id?: number
  readonly result?: CallToolResult
  readonly error?: { readonly code: number; readonly message: string }
}

const rawToolCall = (db: string, name: string, argumentsJson: string): Promise<RawReply> => {
  const child = spawn(process.execPath, [MEM_BIN, "--db", db, "mcp"], { env: { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_URL: "", MEMLEDGER_EMBEDDER: "none" }, stdio: ["pipe", "pipe", "inherit"] })
  const send = (text: string) => child.stdin.write(`${text}\n`)
  send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }))
  send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }))
  send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${argumentsJson}}}`)
  return new Promise((resolve, reject) => {
    child.once("error", reject)
    createInterface({ input: child.stdout }).on("line", (line) => {
      const message = JSON.parse(line) as RawReply
      if (message.id !== 2) return
      child.stdin.end()
      resolve(message)
    })
  })
}

describe("tools/call", () => {
  it("answers arguments nested 5,000 deep with an isError result that says what to do, and writes nothing", async () => {
    const db = freshDb()
    const deep = await rawToolCall(db, "recall", `{"query":${nestedJson(5000)}}`)
    expect(deep.error).toBeUndefined()
    expect(deep.result?.isError).toBe(true)
    expect(textOf(deep.result!)).toMatch(/^invalid arguments for recall: the input nests arrays or objects more than 32 levels deep/)
    expect(textOf(deep.result!)).toMatch(/inputSchema/)
    const tags = await rawToolCall(db, "remember", `{"content":"Deploys go through fly","tags":[${nestedJson(100)}]}`)
    expect(tags.result?.isError).toBe(true)
    const stats = await rawToolCall(db, "stats", "{}")
    expect(stats.result?.structuredContent).toMatchObject({ events: 0 })
  })
})

describe("protocol errors", () => {
  it("carry the message once: the client's prefix is the only 'MCP error -32002'", async () => {
    const error = await server.client.readResource({ uri: "memledger://memory/ZZZZZZZZ" }).then(
      () => expect.fail("expected a rejection"),
      (e: unknown) => e as { code: number; message: string }
    )
    expect(error.code).toBe(-32002)
    expect(error.message).toBe("MCP error -32002: no memory has the id ZZZZZZZZ; call recall to find ids (every result carries its id)")
    await expect(server.client.getPrompt({ name: "nope" })).rejects.toThrow(/^MCP error -32602: no prompt named 'nope'/)
  })
})

describe("a remote mem mcp (MEMLEDGER_URL)", () => {
  /** A stdio server that forwards to `url`, with no token file of the developer's in reach. */
  const remoteMcp = (url: string, token: string) =>
    connectStdio(freshDb(), { env: { MEMLEDGER_URL: url, MEMLEDGER_TOKEN: token, HOME: tempDir("memledger-home-") } })

  it("reports a refused token as an internal error that says the server refused, not as bad params", async () => {
    const served = await startServe(freshDb(), { env: { MEMLEDGER_TOKEN: "the-right-token-of-enough-length-1234" } })
    const mcp = await remoteMcp(served.url, "a-wrong-token-of-enough-length-12345")
    try {
      await expect(mcp.client.listResources()).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/refused the request.*MEMLEDGER_TOKEN/) })
      await expect(mcp.client.getPrompt({ name: "recall_context" })).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/refused the request/) })
    } finally {
      await mcp.close()
    }
  })

  it("reports a server that is down as an internal error that says it cannot be reached", async () => {
    const mcp = await remoteMcp(await unusedUrl(), "any-token-of-enough-length-123456789")
    try {
      await expect(mcp.client.listResources()).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/cannot reach memledger at http/) })
      await expect(mcp.client.getPrompt({ name: "recall_context", arguments: { query: "deploy" } })).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/cannot reach/) })
    } finally {
      await mcp.close()
    }
  })
})
