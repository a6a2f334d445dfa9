/**
 * The HTTP server of `mem serve`: a plain node:http server that guards every request
 * (guard.ts) and routes it: a mounted route such as `/mcp` first, then the REST API's JSON
 * endpoints on node:http directly (json-routes.ts), then, bridged to a web `Request`
 * (web-bridge.ts), the docs page and the REST API for every other request. It holds no logic of
 * its own; the routes call `Operations`.
 *
 * `close()` shuts down without losing an acknowledged write: it stops accepting connections,
 * closes idle ones, lets requests in flight finish (up to `shutdownGraceMs`) with answers that
 * say `Connection: close`, answers anything still arriving on an open connection 503, and only
 * then closes the routes. Since a write's response is
 * sent after its transaction commits, every 200 a client saw is in the store.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { Duplex } from "node:stream"
import { Option } from "effect"
import { allowedMethods } from "./allowed-methods.js"
import { acceptedHostNames, isLoopbackHost, parseAllowedHost, urlHost } from "./bind-host.js"
import { consoleAsset } from "./console-assets.js"
import { DOCS_HEADERS, docsPage } from "./docs-page.js"
import { normaliseErrorResponse } from "./error-bodies.js"
import { isJsonContentType, isTooDeep, parseJsonBody, tooDeepBody, unsupportedMediaTypeBody } from "./json-body.js"
import { checkRequest, type GuardPolicy } from "./guard.js"
import { identifier, type PeopleCheck } from "./identify.js"
import { errorBody, internalErrorBody } from "./json-error.js"
import type { JsonRoutes } from "./json-routes.js"
import type { TokenSource } from "./token.js"
import { callerHeaderProblem } from "./rest-handlers.js"
import { DEFAULT_BODY_LIMIT, readBody, sendError, sendJson, sendWebResponse, toWebRequest } from "./web-bridge.js"

/** A web handler and what ends it; the REST API and any mounted route (e.g. /mcp) are both this. */
export interface WebHandler {
  readonly handle: (request: Request) => Promise<Response>
  readonly close: () => Promise<void>
}

/** A handler mounted at `path`: it answers that path and everything below it. */
export interface WebRoute extends WebHandler {
  readonly path: string
}

export interface ServerOptions {
  readonly host: string
  /** 0 picks any free port; `url` says which. */
  readonly port: number
  /** The server's own token: required on every request but GET /health when set, and the admin person `owner`. */
  readonly token: string | null
  /** Where `token` came from, so that a 401 says where to find it. */
  readonly tokenSource?: TokenSource
  /** The store's people and their tokens (identify.ts): a store that holds any needs a token of every caller. */
  readonly people?: PeopleCheck
  /** The REST API: every path that no other route claims. */
  readonly api: WebHandler
  /**
   * The REST API's JSON endpoints answered on node:http directly (json-routes.ts), ahead of
   * `api`, which still answers whatever they leave: the same endpoints, for less CPU.
   */
  readonly json?: JsonRoutes
  readonly extraRoutes?: ReadonlyArray<WebRoute>
  /** More host names the server answers to (a DNS name, a proxy's): `name` at any port, `name:port` at that one. */
  readonly allowHosts?: ReadonlyArray<string>
  readonly bodyLimit?: number
  readonly shutdownGraceMs?: number
  /** Where errors the client cannot see go; stderr by default. */
  readonly log?: (line: string) => void
  /** How often the token of a live stream is checked again (a revoked one ends it). */
  readonly recheckMs?: number
}

export interface RunningServer {
  /** `http://host:port` as bound, with the real port. */
  readonly url: string
  readonly close: () => Promise<void>
}

export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000

/** The one route that answers with a stream without end: GET /events/live. */
const LIVE_PATH = "/events/live"
const LIVE_RECHECK_MS = 5_000

/** Ends `res` once its request's token is refused (revoked meanwhile); stops asking when it ends. */
const endWhenRefused = (res: ServerResponse, again: () => Promise<{ readonly person: unknown } | { readonly refusal: unknown }>, everyMs: number): void => {
  const timer = setInterval(() => {
    void again().then(
      (identified) => void ("refusal" in identified && res.destroy()),
      () => res.destroy()
    )
  }, everyMs)
  timer.unref()
  res.once("close", () => clearInterval(timer))
}

export const startServer = async (options: ServerOptions): Promise<RunningServer> => {
  const log = options.log ?? ((line: string) => void process.stderr.write(`mem: ${line}\n`))
  const routes = options.extraRoutes ?? []
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  const inFlight = new InFlight()
  /** Responses not yet finished: on shutdown, those not yet started are told to close their connection. */
  const unanswered = new Set<ServerResponse>()
  let stopping = false
  // Both known once listening (the port may be 0 until then); no request arrives before.
  let origin = ""
  let policy: GuardPolicy | undefined
  const identify = identifier({
    token: options.token,
    offLoopback: !isLoopbackHost(options.host),
    ...(options.tokenSource === undefined ? {} : { tokenSource: options.tokenSource }),
    ...(options.people === undefined ? {} : { people: options.people })
  })

  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (stopping) return sendError(res, errorBody(503, "ServiceUnavailable", "the server is shutting down"), { connection: "close" })
    const url = parseTarget(origin, req.url ?? "")
    if (url === undefined) return sendError(res, errorBody(400, "InvalidInput", "the request target must be a path such as /memories"))
    const method = req.method ?? "GET"
    const refusal = checkRequest(policy!, { method, path: url.pathname, header: (name) => single(req.headers[name]) })
    if (refusal !== undefined) return sendError(res, refusal.body, refusal.headers)
    const asked = { method, path: url.pathname, header: (name: "authorization") => single(req.headers[name]) }
    const identified = await identify(asked)
    if ("refusal" in identified) return sendError(res, identified.refusal.body, identified.refusal.headers)
    const person = identified.person
    // A stream answers one request for as long as it lasts: its token is asked about again while it runs.
    if (person !== undefined && url.pathname === LIVE_PATH) endWhenRefused(res, () => identify(asked), options.recheckMs ?? LIVE_RECHECK_MS)
    const read = await readBody(req, bodyLimit)
    if (!read.ok) return sendError(res, read.refusal)
    const route = routes.find((r) => url.pathname === r.path || url.pathname.startsWith(`${r.path}/`))
    const header = (name: string) => single(req.headers[name])
    const body = route === undefined ? restBody(method, read.body) : read.body
    // What every REST request must be, whichever way it is answered; a mounted route (/mcp) checks its own.
    if (route === undefined) {
      const contentType = header("content-type")
      if (body !== undefined && !isJsonContentType(contentType)) return sendError(res, unsupportedMediaTypeBody(contentType!))
      const problem = callerHeaderProblem(header)
      if (problem !== undefined) return sendError(res, errorBody(400, "InvalidInput", problem))
    }
    const endpoint = route === undefined ? options.json?.find(method, url.pathname) : undefined
    if (endpoint !== undefined) return sendJson(res, await endpoint({ body, url, header, person }))
    // What HttpApi would answer less well: a known path's other methods (it says 404), and JSON
    // nested deep enough to overflow its decoders (the direct routes check depth as they parse).
    if (route === undefined) {
      const allow = allowedMethods(url.pathname)
      if (allow.length > 0 && !allow.includes(method)) {
        return sendError(res, errorBody(405, "MethodNotAllowed", `${url.pathname} takes ${allow.join(", ")}, not ${method}`), { allow: allow.join(", ") })
      }
      if (isTooDeep(body)) return sendError(res, tooDeepBody())
    }
    const aborted = new AbortController()
    res.once("close", () => res.writableFinished || aborted.abort())
    const request = toWebRequest(req, origin, body, aborted.signal, person)
    if (request === undefined) return sendError(res, errorBody(400, "InvalidInput", "the request's headers cannot be read"))
    if (route !== undefined) return sendWebResponse(res, await route.handle(request))
    const asset = method === "GET" || method === "HEAD" ? consoleAsset(url.pathname) : undefined
    if (asset !== undefined) {
      return sendWebResponse(res, new Response(method === "HEAD" ? null : asset.body, { headers: { ...asset.headers, "content-length": String(asset.body.length) } }))
    }
    if (url.pathname === "/docs" && (method === "GET" || method === "HEAD")) {
      const page = docsPage()
      return sendWebResponse(res, new Response(page, { headers: { ...DOCS_HEADERS, "content-length": String(Buffer.byteLength(page)) } }))
    }
    const response = await options.api.handle(request)
    const input = response.status >= 400 ? Option.getOrUndefined(parseJsonBody(body)) : undefined
    return sendWebResponse(res, await normaliseErrorResponse(response, { method, path: url.pathname }, log, input))
  }

  const server = createServer({ requestTimeout: 60_000 }, (req, res) => {
    unanswered.add(res)
    res.once("close", () => unanswered.delete(res))
    inFlight.add(
      answer(req, res).catch((error: unknown) => {
        // The client went away (mid-body or mid-answer): there is no one left to answer.
        // (req.destroyed alone says nothing: node destroys a request once its body is read.)
        if (res.destroyed || req.socket.destroyed) return
        log(`internal error on ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
        if (!res.headersSent) sendError(res, internalErrorBody())
        else res.destroy()
      })
    )
  })
  // Requests node cannot even parse (bad framing, headers too large) still get a JSON answer.
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerUnparsable(error, socket))

  try {
    await listen(server, options.host, options.port)
  } catch (error) {
    // The server owns the routes it was given, so they close even when it never starts.
    await Promise.allSettled([...routes.map((r) => r.close()), options.api.close()])
    throw error
  }
  const { port } = server.address() as AddressInfo
  origin = `http://${urlHost(options.host)}:${port}`
  policy = { hostNames: acceptedHostNames(options.host), port, allowedHosts: (options.allowHosts ?? []).map(parseAllowedHost) }

  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      stopping = true
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      // Idle keep-alive connections close now, as any server closing them does (a client
      // retries on a fresh one, which is refused). An answer still to come says
      // `Connection: close`, so its client sends nothing more on that connection.
      server.closeIdleConnections()
      for (const res of unanswered) if (!res.headersSent) res.setHeader("connection", "close")
      // A live stream (GET /events/live) has no end to wait for: it is cut now (its client reconnects
      // to whatever serves next), rather than holding the shutdown for the whole grace period.
      for (const res of unanswered) if (String(res.getHeader("content-type")).startsWith("application/x-ndjson")) res.destroy()
      await inFlight.settled(options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS)
      server.closeAllConnections()
      await closed
      const results = await Promise.allSettled([...routes.map((r) => r.close()), options.api.close()])
      for (const r of results) if (r.status === "rejected") log(`closing a route failed: ${String(r.reason)}`)
    })())

  return { url: origin, close }
}

const listen = (server: ReturnType<typeof createServer>, host: string, port: number) =>
  new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(new Error(`cannot listen on ${urlHost(host)}:${port}: ${error.code === "EADDRINUSE" ? "the port is in use" : error.message}`))
    )
    server.listen(port, host, () => resolve())
  })

const answerUnparsable = (error: NodeJS.ErrnoException, socket: Duplex): void => {
  if (error.code === "ECONNRESET" || !socket.writable) return void socket.destroy()
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400
  const body = JSON.stringify(errorBody(status, status === 400 ? "InvalidInput" : STATUS_CODES[status]!.replace(/\W/g, ""), `the request could not be read: ${STATUS_CODES[status]}`))
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`
  )
}

/**
 * The URL a request addresses, for origin-form targets only ("/path?query"): an absolute URL
 * or "*" would let the client choose the URL routes see.
 */
const parseTarget = (origin: string, target: string): URL | undefined => {
  if (!target.startsWith("/")) return undefined
  try {
    return new URL(origin + target)
  } catch {
    return undefined
  }
}

/**
 * A REST request's body, where none is an empty JSON object: `curl -X POST .../confirm` sends
 * no body to an action whose fields are all optional, and a route that needs a field then
 * names it, rather than calling nothing at all "not JSON".
 */
const restBody = (method: string, body: Buffer | undefined): Buffer | undefined =>
  body === undefined && (method === "POST" || method === "PUT" || method === "PATCH") ? EMPTY_OBJECT : body

const EMPTY_OBJECT = Buffer.from("{}")

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value)

/** The requests being answered, so that shutdown can wait for them. */
class InFlight {
  private readonly pending = new Set<Promise<void>>()

  add(answering: Promise<void>): void {
    this.pending.add(answering)
    void answering.finally(() => this.pending.delete(answering))
  }

  /** Resolves when every request has been answered, or after `timeoutMs`, whichever is first. */
  async settled(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))
    const drained = (async () => {
      while (this.pending.size > 0) await Promise.allSettled([...this.pending])
    })()
    await Promise.race([drained, timeout])
    clearTimeout(timer)
  }
}
