/**
 * The hook's side of the relay: hands one hook run to the `mem mcp` process of the same store,
 * over the socket it listens on (relay-server.ts), and waits for the outcome. That process has
 * loaded the store's code and opened the store already, so a relayed hook costs little more
 * than starting node, where running it here loads and opens both again.
 *
 * Undefined when nothing listens there (no MCP server runs, or it has gone): the hook then runs
 * in its own process. Once the request has gone out the server may have acted on it, so from
 * then on a lost connection or the time limit is a failure, never a reason to run it twice.
 */
import { createRequire } from "node:module"
import type { Socket } from "node:net"
import type { HookOutput } from "../../hooks/handlers.js"
import type { HookRequest, StoreHookOutcome } from "../../hooks/hook-request.js"

export const relayHook = (socketPath: string, request: HookRequest, timeLimitMs: number): Promise<StoreHookOutcome | undefined> =>
  new Promise((resolve) => {
    // Required here, not imported: post-tool-use runs from the same bundle and never relays.
    const { createConnection } = createRequire(import.meta.url)("node:net") as typeof import("node:net")
    const socket: Socket = createConnection(socketPath)
    let sent = false
    const chunks: Buffer[] = []
    const settle = (outcome: StoreHookOutcome | undefined) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(outcome)
    }
    const timer = setTimeout(() => settle(sent ? { failure: `the MCP server did not answer within ${timeLimitMs} ms` } : undefined), timeLimitMs)
    socket.on("connect", () => {
      sent = true
      socket.end(`${JSON.stringify(request)}\n`)
    })
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", (error) => settle(sent ? { failure: `the MCP server's connection failed: ${error.message}` } : undefined))
    socket.on("end", () => settle(outcomeOf(Buffer.concat(chunks).toString("utf8"))))
  })

/** The server's line: `{"output": ...}` (null for none) or `{"failure": "..."}`. */
const outcomeOf = (answer: string): StoreHookOutcome => {
  try {
    const parsed: unknown = JSON.parse(answer)
    if (typeof parsed === "object" && parsed !== null) {
      const { output, failure } = parsed as { output?: HookOutput | null; failure?: unknown }
      if (typeof failure === "string") return { failure }
      if (output !== undefined) return { output: output ?? undefined }
    }
  } catch {
    // Said below.
  }
  return { failure: `the MCP server answered what is not a hook outcome: ${answer.slice(0, 200)}` }
}
