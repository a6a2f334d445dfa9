/**
 * MCP over Streamable HTTP, as a web-standard handler (`Request` -> `Response`) that `mem serve`
 * mounts at /mcp; authentication and Host checks are the server's job, not this handler's: the
 * person it found the token to be comes in its own header (person-header.ts).
 *
 * Each session gets its own transport and `Server` (a Server holds one client's handshake): an
 * initialize request without a session id opens one, every later request names it in the
 * `mcp-session-id` header, and DELETE, `close()` or a long idle time ends it. Writes are
 * recorded as `<client name>:<session id>`; the current project is the `x-memledger-project`
 * header of each request, or none.
 */
import { randomUUID } from "node:crypto"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { CALLER_HEADERS } from "../../api/http-api.js"
import { decodePerson, PERSON_HEADER } from "../http/person-header.js"
import { sessionCaller, type RequestContext } from "./caller.js"
import type { RunOperation } from "./runtime.js"
import { makeMcpServer } from "./server.js"

export interface McpWebHandlerOptions {
  /** Runs operations on the server's runtime (see `runOn` and `operationsRuntime` in runtime.ts). */
  readonly run: RunOperation
  /** A session with no request for this long is closed (default 30 minutes). */
  readonly idleTimeoutMs?: number
}

export interface McpWebHandler {
  readonly handle: (request: Request) => Promise<Response>
  /** Closes every session; the runtime stays open (its owner closes it). */
  readonly close: () => Promise<void>
  /** How many sessions are open, for tests and diagnostics. */
  readonly sessionCount: () => number
}

interface Session {
  readonly transport: WebStandardStreamableHTTPServerTransport
  readonly server: Server
  lastSeen: number
}

const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000
const SESSION_HEADER = "mcp-session-id"

export const makeMcpWebHandler = (options: McpWebHandlerOptions): McpWebHandler => {
  const sessions = new Map<string, Session>()
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS

  const open = (): Session => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, session)
    })
    // Set before connect: the Server chains its own close handling after this one.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId)
    }
    // Each request's own person: the token may differ from the one the session was opened with.
    const server = makeMcpServer(options.run, (client, request) =>
      sessionCaller(client, request.sessionId ?? "no-session", projectHeader(request), decodePerson(request.headers?.[PERSON_HEADER]))
    )
    const session: Session = { transport, server, lastSeen: Date.now() }
    return session
  }

  const handle = async (request: Request): Promise<Response> => {
    const id = request.headers.get(SESSION_HEADER)
    if (id !== null) {
      const session = sessions.get(id)
      if (session === undefined) return jsonRpcError(404, -32001, "Session not found: it ended or never existed; initialize a new one")
      session.lastSeen = Date.now()
      return session.transport.handleRequest(request)
    }
    // No session yet: only an initialize request may open one. The transport answers anything
    // else with 400, and then this would-be session is thrown away.
    const session = open()
    await session.server.connect(session.transport)
    const response = await session.transport.handleRequest(request)
    if (session.transport.sessionId === undefined) await session.server.close()
    return response
  }

  const closeSession = async (session: Session) => {
    await session.server.close()
  }

  const sweep = setInterval(() => {
    const now = Date.now()
    for (const session of sessions.values()) if (now - session.lastSeen > idleTimeoutMs) void closeSession(session)
  }, Math.min(idleTimeoutMs, 60_000))
  // The sweep never keeps a process alive on its own.
  sweep.unref()

  return {
    handle,
    close: async () => {
      clearInterval(sweep)
      await Promise.all([...sessions.values()].map(closeSession))
      sessions.clear()
    },
    sessionCount: () => sessions.size
  }
}

const projectHeader = (request: RequestContext): string | null => {
  const value = request.headers?.[CALLER_HEADERS.project]
  const project = (typeof value === "string" ? value : value?.[0])?.trim()
  return project === undefined || project.length === 0 ? null : project
}

const jsonRpcError = (status: number, code: number, message: string): Response =>
  new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), { status, headers: { "content-type": "application/json" } })
