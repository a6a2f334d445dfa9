/**
 * What `mem mcp` does with input that is not a well-formed JSON-RPC request, as JSON-RPC 2.0
 * says: malformed JSON is answered -32700, a value that is no request -32600 (with a null id
 * when none can be read), params a method cannot take -32602 in a short message, and the
 * server goes on serving the lines after them. A line too long to read (over 10 MiB) is
 * answered and skipped, never a hang, and end of input still ends the process.
 */
import { spawn } from "node:child_process"
import { describe, expect, it, onTestFinished } from "vitest"
import { MEM_BIN } from "../support/cli.js"
import { freshDb } from "./support.js"

interface Reply {
  readonly jsonrpc: string
  readonly id: number | string | null
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string }
}

/**
 * Runs `mem mcp`, writes `chunks` to its stdin and ends it; resolves when the process has exited.
 * A server that never exits fails its test by the timeout, and is killed then, not left behind.
 */
const serve = (chunks: ReadonlyArray<string>) =>
  new Promise<{ code: number | null; replies: Reply[]; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [MEM_BIN, "--db", freshDb(), "mcp"], { env: { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_EMBEDDER: "none" } })
    onTestFinished(() => void (child.exitCode === null && child.kill("SIGKILL")))
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (c: string) => (stdout += c))
    child.stderr.setEncoding("utf8").on("data", (c: string) => (stderr += c))
    child.on("close", (code) => resolve({ code, stderr, replies: stdout.split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Reply) }))
    for (const chunk of chunks) child.stdin.write(chunk)
    child.stdin.end()
  })

const line = (value: object) => `${JSON.stringify({ jsonrpc: "2.0", ...value })}\n`
const initialize = line({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } })
const initialized = line({ method: "notifications/initialized" })
const ping = (id: number) => line({ id, method: "ping" })

const byId = (replies: ReadonlyArray<Reply>, id: number) => replies.find((r) => r.id === id)
const withoutId = (replies: ReadonlyArray<Reply>) => replies.filter((r) => r.id === null)

describe("mem mcp on malformed input", () => {
  it("answers malformed JSON -32700, and a value that is no request -32600, then serves on", async () => {
    const { code, replies } = await serve([
      initialize,
      initialized,
      "{\n",
      "null\n",
      "[]\n",
      '"a string"\n',
      `${JSON.stringify({ jsonrpc: "1.0", id: 2, method: "ping" })}\n`,
      `${JSON.stringify({ jsonrpc: "2.0", id: 3 })}\n`,
      ping(9)
    ])
    expect(code).toBe(0)
    expect(withoutId(replies).map((r) => r.error?.code)).toEqual([-32700, -32600, -32600, -32600])
    expect(byId(replies, 2)?.error?.code).toBe(-32600)
    expect(byId(replies, 2)?.error?.message).toMatch(/jsonrpc/)
    expect(byId(replies, 3)?.error?.code).toBe(-32600)
    expect(byId(replies, 9)?.result).toEqual({})
    expect(replies.every((r) => r.jsonrpc === "2.0")).toBe(true)
  })

  it("answers params a method cannot take -32602, in a short message naming the field", async () => {
    const { code, replies } = await serve([
      initialize,
      initialized,
      line({ id: 3, method: "tools/call", params: { name: 5 } }),
      line({ id: 4, method: "resources/read", params: { uri: 5 } }),
      line({ id: 5, method: "prompts/get", params: {} }),
      ping(9)
    ])
    expect(code).toBe(0)
    for (const [id, field] of [[3, "name"], [4, "uri"], [5, "name"]] as const) {
      const error = byId(replies, id)?.error
      expect(error?.code, `id ${id}`).toBe(-32602)
      expect(error?.message, `id ${id}`).toMatch(new RegExp(`\\b${field}\\b`))
      expect(error?.message, `id ${id}`).not.toMatch(/\[\s*\{|invalid_type|"code"/)
      expect(error!.message.length, `id ${id}`).toBeLessThan(200)
    }
    expect(byId(replies, 9)?.result).toEqual({})
  })
})

describe("mem mcp on a line over 10 MiB", () => {
  const huge = `${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping", params: { pad: "x".repeat(11 * 1024 * 1024) } })}\n`

  it("answers it with an error, serves the lines after it, and exits at the end of input", async () => {
    const { code, replies } = await serve([initialize, initialized, huge, ping(3)])
    expect(code).toBe(0)
    const [tooLong] = withoutId(replies)
    expect(tooLong?.error?.code).toBe(-32600)
    expect(tooLong?.error?.message).toMatch(/10 MiB/)
    expect(byId(replies, 3)?.result).toEqual({})
  }, 60_000)

  it("exits at the end of input even when the long line never ends", async () => {
    const { code, replies } = await serve([initialize, initialized, huge.slice(0, -1)])
    expect(code).toBe(0)
    expect(withoutId(replies)[0]?.error?.code).toBe(-32600)
  }, 60_000)
})
