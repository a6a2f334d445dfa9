/**
 * The direct JSON routes (json-routes.ts) answer exactly as the HttpApi they stand in for: two
 * servers over one store, one with the direct routes and one through HttpApi alone, get the
 * same requests (good ones, bad input of every kind, unknown ids, caller headers) and must give
 * the same status, headers and body (but for what the clock changes between the two). The direct server must also really answer them itself,
 * and leave to HttpApi what it does not plainly own (HEAD, the OpenAPI document).
 */
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeJsonRoutes } from "../../src/adapters/http/json-routes.js"
import { makeRestWebHandler } from "../../src/adapters/http/rest-app.js"
import { Console } from "../../src/services/console.js"
import { startServer, type RunningServer } from "../../src/adapters/http/server.js"
import { Operations } from "../../src/api/operations.js"
import { LocalOperationsLayer } from "../../src/services/app.js"
import { tempDir } from "../support/cli.js"
import { rawRequest, type Answer } from "../support/serve.js"

const runtime = ManagedRuntime.make(LocalOperationsLayer(join(tempDir(), "json-routes.db")))
const servers: RunningServer[] = []
const bridged = { direct: 0, reference: 0 }
let direct: RunningServer
let reference: RunningServer
let id = ""

beforeAll(async () => {
  const operations = await runtime.runPromise(Operations)
  const consoleReads = await runtime.runPromise(Console)
  const start = async (name: keyof typeof bridged, withJsonRoutes: boolean) => {
    const rest = makeRestWebHandler(operations, consoleReads)
    const server = await startServer({
      host: "127.0.0.1",
      port: 0,
      token: null,
      api: {
        handle: (request) => {
          bridged[name]++
          return rest.handler(request)
        },
        close: () => rest.dispose()
      },
      ...(withJsonRoutes ? { json: makeJsonRoutes(operations, () => undefined) } : {})
    })
    servers.push(server)
    return server
  }
  direct = await start("direct", true)
  reference = await start("reference", false)
  const stored = await runtime.runPromise(
    Effect.flatMap(Operations, (o) => o.remember({ content: "run the shop's tests with pnpm test, never npm test", scope: "global" }, { origin: "t", agent: "t", project: null }))
  )
  if (!stored.stored) throw new Error("the fixture memory was not stored")
  id = stored.id
})

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  await runtime.dispose()
})

interface Probe {
  readonly method: string
  readonly path: string
  readonly body?: string
  readonly headers?: Record<string, string>
}

const json = { "content-type": "application/json" }
const agent = { "x-memledger-origin": "claude-code:session/1", "x-memledger-agent": "claude-code", "x-memledger-project": "github.com/acme/shop" }

/**
 * What a client sees of an answer, but for what changes with the clock between two requests:
 * the date header, timestamps and fractional numbers (a ranking's recency decays by the
 * millisecond), and so the length. That the length is the body's own is checked on its own.
 */
const seen = (method: string, answer: Answer) => {
  if (method !== "HEAD") expect(Number(answer.headers.get("content-length"))).toBe(Buffer.byteLength(answer.text))
  return {
    status: answer.status,
    headers: [...answer.headers].filter(([name]) => name !== "date" && name !== "content-length"),
    body: answer.text.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "<time>").replace(/\d+\.\d+(e-?\d+)?/g, "<fraction>")
  }
}

const both = async (probe: Probe) => {
  const send = (server: RunningServer) => rawRequest(server.url, probe.method, probe.path.replace("{id}", id), probe.headers ?? {}, probe.body?.replace("{id}", id))
  return { direct: seen(probe.method, await send(direct)), reference: seen(probe.method, await send(reference)) }
}

describe("the direct JSON routes", () => {
  const owned: ReadonlyArray<Probe> = [
    { method: "GET", path: "/health" },
    { method: "GET", path: "/stats" },
    { method: "POST", path: "/search", body: JSON.stringify({ query: "tests pnpm" }), headers: json },
    { method: "POST", path: "/search", body: JSON.stringify({ query: "tests pnpm", limit: 1 }), headers: agent },
    { method: "POST", path: "/search", body: "\ufeff" + JSON.stringify({ query: "tests" }), headers: json },
    { method: "POST", path: "/search", body: JSON.stringify({ query: 5 }), headers: json },
    { method: "POST", path: "/search", body: JSON.stringify({ quer: "tests" }), headers: json },
    { method: "POST", path: "/search", body: JSON.stringify({ query: "tests", limit: -1, category: "nope" }), headers: json },
    { method: "POST", path: "/search", body: JSON.stringify([1, 2]), headers: json },
    { method: "POST", path: "/search", body: '{"query":', headers: json },
    { method: "POST", path: "/search", body: "", headers: json },
    { method: "POST", path: "/search", body: JSON.stringify({ query: "tests" }), headers: { "content-type": "application/json; charset=utf-8" } },
    { method: "POST", path: "/why", body: JSON.stringify({ query: "tests pnpm" }), headers: json },
    { method: "POST", path: "/context", body: JSON.stringify({ query: "tests" }), headers: { ...json, ...agent } },
    { method: "GET", path: "/memories" },
    { method: "GET", path: "/memories?limit=1&all=true" },
    { method: "GET", path: "/memories?limit=abc" },
    { method: "GET", path: "/memories?limit=1&limit=2" },
    { method: "GET", path: "/memories/{id}" },
    { method: "GET", path: "/memories/zzzzzzzz" },
    { method: "GET", path: "/memories/not!an!id" },
    { method: "GET", path: "/events?limit=2" },
    { method: "GET", path: "/events?after=-1" },
    { method: "GET", path: "/conversations" },
    { method: "POST", path: "/memories", body: JSON.stringify({ content: "" }), headers: json },
    { method: "POST", path: "/memories", body: JSON.stringify({ content: "x", category: "nope" }), headers: json },
    { method: "PATCH", path: "/memories/{id}", body: JSON.stringify({ category: "nope" }), headers: json },
    { method: "POST", path: "/memories/zzzzzzzz/forget", body: "{}", headers: json },
    { method: "POST", path: "/memories/{id}/supersede", body: JSON.stringify({ by: "{id}" }), headers: json },
    { method: "GET", path: "/memories/{id}/cues" },
    { method: "GET", path: "/memories/zzzzzzzz/cues" },
    { method: "POST", path: "/memories/{id}/cues/drop", body: JSON.stringify({ cue: "never learned" }), headers: json },
    { method: "POST", path: "/memories/{id}/cues/drop", body: JSON.stringify({}), headers: json },
    { method: "POST", path: "/search", body: JSON.stringify({ query: "tests", also: ["pnpm test"] }), headers: json },
    { method: "POST", path: "/search", body: JSON.stringify({ query: "tests", also: "pnpm test" }), headers: json },
    { method: "POST", path: "/memories", body: JSON.stringify({ content: "x", cues: ["a", "b", "c", "d", "e", "f"] }), headers: json },
    { method: "POST", path: "/outcomes", body: JSON.stringify({ memory_ids: ["zzzzzzzz"], outcome: "worked" }), headers: json },
    { method: "POST", path: "/outcomes", body: JSON.stringify({ memory_ids: ["{id}"], outcome: "maybe" }), headers: json },
    { method: "POST", path: "/conversations/restore", body: JSON.stringify({ origin: "nobody:never" }), headers: json }
  ]

  it.each(owned)("answers $method $path as HttpApi does, without it", async (probe) => {
    const before = bridged.direct
    const answers = await both(probe)
    expect(answers.direct).toEqual(answers.reference)
    expect(bridged.direct).toBe(before)
  })

  const left: ReadonlyArray<Probe> = [
    { method: "HEAD", path: "/health" },
    { method: "GET", path: "/openapi.json" },
    { method: "GET", path: "/nowhere" },
    { method: "GET", path: "/memories/" },
    { method: "GET", path: "/memories/%7Aabc" }
  ]

  it.each(left)("leaves $method $path to HttpApi", async (probe) => {
    const before = bridged.direct
    const answers = await both(probe)
    expect(answers.direct).toEqual(answers.reference)
    expect(bridged.direct).toBe(before + 1)
  })
})

describe("what the server refuses before either way in", () => {
  const refused: ReadonlyArray<Probe & { readonly status: number }> = [
    { method: "DELETE", path: "/search", status: 405 },
    { method: "POST", path: "/search", body: JSON.stringify({ query: "tests" }), headers: { "content-type": "text/plain" }, status: 415 },
    { method: "POST", path: "/search", body: "query=tests", headers: { "content-type": "application/x-www-form-urlencoded" }, status: 415 }
  ]

  it.each(refused)("refuses $method $path $headers with $status", async (probe) => {
    const before = { ...bridged }
    const answers = await both(probe)
    expect(answers.direct).toEqual(answers.reference)
    expect(answers.direct.status).toBe(probe.status)
    expect(bridged).toEqual(before)
  })
})
