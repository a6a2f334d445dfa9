/**
 * node:http <-> web `Request`/`Response`, so that every route (the REST API, /mcp) is a plain
 * `(Request) => Promise<Response>` and the server stays a few lines of routing; and the JSON
 * answers written to node:http as they are (the direct JSON routes, refusals). The request
 * body is read whole, up to a limit: past it the request is answered 413 without reading
 * further, so a client cannot make the server buffer an unbounded body.
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { Person } from "../../domain/person.js"
import { errorBody, type ErrorBody } from "./json-error.js"
import { encodePerson, PERSON_HEADER } from "./person-header.js"

export const DEFAULT_BODY_LIMIT = 1024 * 1024

export type BodyRead = { readonly ok: true; readonly body: Buffer | undefined } | { readonly ok: false; readonly refusal: ErrorBody }

/** The whole body, or a 413 refusal once it passes `limit` bytes (by Content-Length or as it streams in). */
export const readBody = (req: IncomingMessage, limit: number): Promise<BodyRead> => {
  const tooLarge = (): BodyRead => ({
    ok: false,
    refusal: errorBody(413, "PayloadTooLarge", `the request body is larger than ${limit} bytes, the limit of this server`)
  })
  const declared = Number(req.headers["content-length"] ?? "0")
  if (declared > limit) return Promise.resolve(tooLarge())
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) {
        req.off("data", onData)
        chunks.length = 0
        // Node discards the rest of the body once the response is sent.
        resolve(tooLarge())
      } else chunks.push(chunk)
    }
    req.on("data", onData)
    req.once("end", () => resolve({ ok: true, body: size === 0 ? undefined : Buffer.concat(chunks) }))
    req.once("error", reject)
    // Closed before the end: the client went away mid-body (after "end" this does nothing).
    req.once("close", () => reject(new Error("the client closed the connection before sending the whole body")))
  })
}

/**
 * The web Request for `req`, addressed to `origin` (the server's own, never the client's Host:
 * routes must not build links from a header the client chose); undefined when its headers are
 * not valid Fetch headers. `signal` aborts when the client goes away, which ends a streaming
 * response such as MCP's event stream. The caller the server identified goes in the person
 * header (person-header.ts), and a client's own header of that name is dropped.
 */
export const toWebRequest = (
  req: IncomingMessage,
  origin: string,
  body: Buffer | undefined,
  signal: AbortSignal,
  person?: Person
): Request | undefined => {
  const method = req.method ?? "GET"
  const hasBody = body !== undefined && method !== "GET" && method !== "HEAD"
  try {
    const headers = new Headers()
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i]!.toLowerCase() !== PERSON_HEADER) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!)
    }
    if (person !== undefined) headers.set(PERSON_HEADER, encodePerson(person))
    return new Request(origin + (req.url ?? "/"), { method, headers, signal, ...(hasBody ? { body } : {}) })
  } catch {
    // A header value node accepts but the Fetch standard does not.
    return undefined
  }
}

/** Writes `response` to `res`, streaming its body. Never sends CORS headers, whoever set them. */
export const sendWebResponse = async (res: ServerResponse, response: Response): Promise<void> => {
  res.statusCode = response.status
  for (const [name, value] of response.headers) {
    if (name.startsWith("access-control-") || name === "set-cookie") continue
    res.setHeader(name, value)
  }
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) res.setHeader("set-cookie", cookies)
  res.setHeader("x-content-type-options", "nosniff")
  if (response.body === null) {
    res.end()
    return
  }
  // A body of known length (every JSON answer) is written in one piece; the stream machinery
  // is for bodies that arrive over time, such as MCP's event streams.
  if (response.headers.has("content-length")) {
    res.end(Buffer.from(await response.arrayBuffer()))
    return
  }
  await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), res)
}

/**
 * A JSON answer written straight to `res`, with the headers every JSON answer of the server
 * has. A string body goes out with the headers in one write.
 */
export const sendJson = (res: ServerResponse, answer: { readonly status: number; readonly body: string }): void => {
  res.writeHead(answer.status, { "content-length": Buffer.byteLength(answer.body), "content-type": "application/json", "x-content-type-options": "nosniff" })
  res.end(answer.body)
}

/** A small JSON answer written straight to `res` (guard refusals, 413, shutdown). */
export const sendError = (res: ServerResponse, body: ErrorBody, headers: Record<string, string> = {}): void => {
  const text = JSON.stringify(body)
  res.writeHead(body.status, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(text), "x-content-type-options": "nosniff" })
  res.end(text)
}
