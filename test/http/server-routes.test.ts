/**
 * `startServer`'s routing table, in process over a real socket: a mounted route (as /mcp will
 * be) gets its path and everything below it, behind the same guard; the REST handler gets the
 * rest; CORS headers never leave; a throwing route is a logged 500; and close() lets requests
 * in flight finish before it closes every route, once.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { startServer, type RunningServer, type WebRoute } from "../../src/adapters/http/server.js"
import { rawRequest, request } from "../support/serve.js"

const running: RunningServer[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()))
})

const start = async (options: { token?: string; route?: Partial<WebRoute>; log?: (line: string) => void; shutdownGraceMs?: number } = {}) => {
  const echo: WebRoute = {
    path: "/echo",
    handle: async (req) =>
      Response.json(
        { route: "echo", method: req.method, url: req.url, body: await req.text() },
        { headers: { "access-control-allow-origin": "*", "access-control-allow-credentials": "true" } }
      ),
    close: vi.fn(async () => undefined),
    ...options.route
  }
  const api = { handle: vi.fn(async (req: Request) => Response.json({ route: "rest", path: new URL(req.url).pathname })), close: vi.fn(async () => undefined) }
  const server = await startServer({
    host: "127.0.0.1",
    port: 0,
    token: options.token ?? null,
    api,
    extraRoutes: [echo],
    ...(options.log ? { log: options.log } : {}),
    ...(options.shutdownGraceMs ? { shutdownGraceMs: options.shutdownGraceMs } : {})
  })
  running.push(server)
  return { server, echo, api }
}

/** Something a test waits for: `fire` makes `fired` resolve. */
const signal = () => {
  let fire: () => void = () => undefined
  const fired = new Promise<void>((resolve) => (fire = resolve))
  return { fired, fire: () => fire() }
}

describe("startServer routes", () => {
  it("sends a mounted path and everything below it to its route, and the rest to the REST handler", async () => {
    const { server } = await start()
    const echoed = await request(server.url, "POST", "/echo/sub?x=1", "hello")
    expect(echoed.json()).toEqual({ route: "echo", method: "POST", url: `${server.url}/echo/sub?x=1`, body: "hello" })
    expect((await request(server.url, "GET", "/echo")).json()).toMatchObject({ route: "echo" })
    expect((await request(server.url, "GET", "/echoes")).json()).toEqual({ route: "rest", path: "/echoes" })
    expect((await request(server.url, "GET", "/memories")).json()).toEqual({ route: "rest", path: "/memories" })
  })

  it("strips CORS headers a route sets", async () => {
    const { server } = await start()
    const answer = await request(server.url, "GET", "/echo")
    expect([...answer.headers.keys()].filter((h) => h.startsWith("access-control-"))).toEqual([])
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff")
  })

  it("guards a mounted route like every other: token, Host, Origin", async () => {
    const { server, echo } = await start({ token: "a-token-of-enough-length" })
    expect((await request(server.url, "GET", "/echo")).status).toBe(401)
    expect((await request(server.url, "GET", "/echo", undefined, { authorization: "Bearer a-token-of-enough-length" })).status).toBe(200)
    const port = new URL(server.url).port
    expect((await rawRequest(server.url, "GET", "/echo", { host: `evil.example:${port}`, authorization: "Bearer a-token-of-enough-length" })).status).toBe(421)
    expect((await rawRequest(server.url, "GET", "/echo", { origin: "http://evil.example", authorization: "Bearer a-token-of-enough-length" })).status).toBe(403)
    expect(vi.mocked(echo.close)).not.toHaveBeenCalled()
  })

  it("answers a route that throws with a logged InternalError", async () => {
    const logged: string[] = []
    const { server } = await start({ route: { handle: async () => Promise.reject(new Error("route bug")) }, log: (line) => logged.push(line) })
    const answer = await request(server.url, "GET", "/echo")
    expect(answer.status).toBe(500)
    expect(answer.json()).toEqual({ error: "InternalError", message: expect.any(String), status: 500 })
    expect(logged.join("\n")).toContain("route bug")
  })

  it("close() lets a request in flight finish, then closes every route once", async () => {
    const [reached, gate] = [signal(), signal()]
    const { server, echo, api } = await start({
      route: {
        handle: async () => {
          reached.fire()
          await gate.fired
          return Response.json({ finished: true })
        }
      }
    })
    running.splice(0)
    const slow = request(server.url, "GET", "/echo")
    await reached.fired
    const closing = server.close()
    // close() is under way (no new connection is taken), and the route stays open while its request runs.
    await expect(request(server.url, "GET", "/health")).rejects.toThrow()
    expect(vi.mocked(echo.close)).not.toHaveBeenCalled()
    gate.fire()
    expect((await slow).json()).toEqual({ finished: true })
    await closing
    await server.close()
    expect(vi.mocked(echo.close)).toHaveBeenCalledTimes(1)
    expect(api.close).toHaveBeenCalledTimes(1)
    await expect(request(server.url, "GET", "/health")).rejects.toThrow()
  })

  it("close() gives up on a request that outlasts the grace period", async () => {
    const reached = signal()
    const never = () => {
      reached.fire()
      return new Promise<Response>(() => undefined)
    }
    const { server, echo } = await start({ route: { handle: never }, shutdownGraceMs: 200 })
    running.splice(0)
    const hung = request(server.url, "GET", "/echo").catch((error: unknown) => error)
    await reached.fired
    // The route never answers: close() returning at all is it giving up.
    await server.close()
    expect(await hung).toBeInstanceOf(Error)
    expect(vi.mocked(echo.close)).toHaveBeenCalledTimes(1)
  })

  it("closes its routes when it cannot listen", async () => {
    const { server } = await start()
    const route: WebRoute = { path: "/x", handle: async () => new Response(), close: vi.fn(async () => undefined) }
    const api = { handle: async () => new Response(), close: vi.fn(async () => undefined) }
    const port = Number(new URL(server.url).port)
    await expect(startServer({ host: "127.0.0.1", port, token: null, api, extraRoutes: [route] })).rejects.toThrow(/the port is in use/)
    expect(route.close).toHaveBeenCalledTimes(1)
    expect(api.close).toHaveBeenCalledTimes(1)
  })
})
