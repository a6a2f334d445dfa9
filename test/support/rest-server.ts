/**
 * The REST API over a real store on a real local socket, for remote-mode tests: a node:http
 * server that hands each request to `makeRestWebHandler(operations)` as a web Request and
 * writes its Response back, as `mem serve` does. It can demand a bearer token, and it keeps
 * the headers of every request, so a test can check what a client actually sent.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { ManagedRuntime } from "effect"
import { Operations } from "../../src/api/operations.js"
import { makeRestWebHandler } from "../../src/adapters/http/rest-app.js"
import { Console } from "../../src/services/console.js"
import { LocalOperationsLayer } from "../../src/services/app.js"
import { tempDir } from "./cli.js"

export interface RestServer {
  readonly url: string
  /** The store file the server writes to; a test may read it with `mem --db`. */
  readonly dbPath: string
  readonly requests: ReadonlyArray<IncomingHttpHeaders>
  readonly close: () => Promise<void>
}

export const startRestServer = async (options: { readonly token?: string; readonly dbPath?: string } = {}): Promise<RestServer> => {
  const dbPath = options.dbPath ?? join(tempDir(), "server.db")
  const runtime = ManagedRuntime.make(LocalOperationsLayer(dbPath))
  const rest = makeRestWebHandler(await runtime.runPromise(Operations), await runtime.runPromise(Console))
  const requests: IncomingHttpHeaders[] = []

  const server = createServer((req, res) => {
    requests.push(req.headers)
    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      return sendJson(res, 401, { error: "Unauthorized", message: "a valid bearer token is required", status: 401 })
    }
    void toWebRequest(req)
      .then(rest.handler)
      .then((response) => writeWebResponse(res, response))
      .catch((error: unknown) => sendJson(res, 500, { error: "InternalError", message: String(error), status: 500 }))
  })
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    dbPath,
    requests,
    close: async () => {
      server.closeAllConnections()
      await new Promise((closed) => server.close(closed))
      await rest.dispose()
      await runtime.dispose()
    }
  }
}

/** A URL where nothing listens: a port the system gave out and that is closed again. */
export const unusedUrl = async (): Promise<string> => {
  const server = createServer()
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready))
  const { port } = server.address() as AddressInfo
  await new Promise((closed) => server.close(closed))
  return `http://127.0.0.1:${port}`
}

const toWebRequest = async (req: IncomingMessage): Promise<Request> => {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v)
  }
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    ...(body.length > 0 ? { body } : {})
  })
}

const writeWebResponse = async (res: ServerResponse, response: Response): Promise<void> => {
  const body = Buffer.from(await response.arrayBuffer())
  res.writeHead(response.status, Object.fromEntries(response.headers))
  res.end(body)
}

const sendJson = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { "content-type": "application/json" })
  res.end(JSON.stringify(body))
}
