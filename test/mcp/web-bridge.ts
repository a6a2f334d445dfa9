/**
 * A tiny node HTTP server that hands every request to a web-standard handler, the way
 * `mem serve` mounts the MCP handler: node's request becomes a `Request`, the `Response`
 * (SSE streams included) is written back as it is produced.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"

export interface WebServer {
  readonly url: URL
  readonly close: () => Promise<void>
}

export const serveWeb = async (handle: (request: Request) => Promise<Response>): Promise<WebServer> => {
  const server = createServer((req, res) => void forward(handle, req, res))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

const toRequest = (req: IncomingMessage): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, one)
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD"
  const init: RequestInit & { duplex?: "half" } = { method: req.method ?? "GET", headers }
  if (hasBody) {
    init.body = Readable.toWeb(req) as ReadableStream<Uint8Array>
    // Node's fetch requires saying that a streamed body is sent before the response is read.
    init.duplex = "half"
  }
  return new Request(new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`), init)
}

const forward = async (handle: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse): Promise<void> => {
  try {
    const response = await handle(toRequest(req))
    res.writeHead(response.status, Object.fromEntries(response.headers))
    if (response.body === null) return void res.end()
    const reader = response.body.getReader()
    // A client that goes away ends an open SSE stream.
    res.on("close", () => void reader.cancel().catch(() => undefined))
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value)
    res.end()
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" })
    res.end(String(error))
  }
}
