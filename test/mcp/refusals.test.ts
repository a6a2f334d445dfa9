/**
 * How `mem mcp` refuses what it cannot do, over real stdio: arguments too deeply nested to
 * decode are a tool result the model can read, not a crashed request.
 */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { describe, expect, it } from "vitest"
import { MEM_BIN } from "../support/cli.js"
import { freshDb, textOf } from "./support.js"

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
