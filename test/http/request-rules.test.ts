/**
 * What `mem serve` refuses before a route decodes a request, over a real socket and on both
 * ways in (the direct JSON routes, and the HttpApi bridge, reached with a percent-encoded path
 * segment): bodies that are not JSON (415), JSON nested too deep to decode (400, never a 500),
 * over-long caller headers (400 naming the header), a known path asked with a method it does not
 * take (405 with Allow, not 404); and that a body failing its schema gets the tag the CLI and
 * the SDK give the same mistake.
 */
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempDir } from "../support/cli.js"
import { rawRequest, startServe, stopAllServers, type Served } from "../support/serve.js"

let server: Served
beforeAll(async () => {
  server = await startServe(join(tempDir(), "m.db"))
})
afterAll(stopAllServers)

const post = (path: string, body: string, headers: Record<string, string> = { "content-type": "application/json" }) =>
  rawRequest(server.url, "POST", path, headers, body)

/** An id that no memory has, percent-encoded so that HttpApi (not the direct routes) answers. */
const BRIDGED_ID = "01zzzzzzzzzzzzzzzzzzzzzzz%7A"

describe("JSON nested too deep", () => {
  it("is refused with 400 InvalidInput on the direct routes, not a stack overflow's 500", async () => {
    const content = await post("/memories", `{"content": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`)
    expect(content.status, content.text).toBe(400)
    expect(content.json()).toMatchObject({ error: "InvalidInput", message: expect.stringMatching(/nests .* more than 32 levels/) })
    const query = await post("/search", `{"query": ${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}}`)
    expect(query.status, query.text).toBe(400)
    expect(query.json().error).toBe("InvalidInput")
  })

  it("is refused the same way on the HttpApi bridge", async () => {
    const deep = await rawRequest(server.url, "PATCH", `/memories/${BRIDGED_ID}`, { "content-type": "application/json" }, `{"tags": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`)
    expect(deep.status, deep.text).toBe(400)
    expect(deep.json().message).toMatch(/more than 32 levels/)
  })
})

describe("bodies that are not JSON", () => {
  it("are refused with 415, on the direct routes and on the bridge, and store nothing", async () => {
    const form = await post("/memories", "content=hi", { "content-type": "application/x-www-form-urlencoded" })
    expect(form.status, form.text).toBe(415)
    expect(form.json()).toMatchObject({ error: "UnsupportedMediaType", status: 415, message: expect.stringContaining("Content-Type: application/json") })
    const text = await post("/search", '{"query": "deploy"}', { "content-type": "text/plain" })
    expect(text.status, text.text).toBe(415)
    const bridged = await rawRequest(server.url, "PATCH", `/memories/${BRIDGED_ID}`, { "content-type": "text/plain" }, '{"content": "x"}')
    expect(bridged.status, bridged.text).toBe(415)
    expect((await server.call("GET", "/memories?all=true")).json().memories).toEqual([])
  })

  it("still takes JSON with a charset, or with no content type at all", async () => {
    expect((await post("/search", '{"query": "deploy"}', { "content-type": "application/json; charset=utf-8" })).status).toBe(200)
    expect((await post("/search", '{"query": "deploy"}', {})).status).toBe(200)
  })
})

describe("caller headers", () => {
  it("refuses an over-long x-memledger-origin or x-memledger-project with 400 naming it, instead of ignoring it", async () => {
    const origin = await post("/memories", '{"content": "a note about origins"}', { "content-type": "application/json", "x-memledger-origin": "o".repeat(501) })
    expect(origin.status, origin.text).toBe(400)
    expect(origin.json()).toMatchObject({ error: "InvalidInput", message: expect.stringContaining("x-memledger-origin") })
    const project = await post("/memories", '{"content": "a note about projects"}', { "content-type": "application/json", "x-memledger-project": "p".repeat(1200) })
    expect(project.status, project.text).toBe(400)
    expect(project.json().message).toContain("x-memledger-project")
    const agent = await post("/memories", '{"content": "a note about agents"}', { "content-type": "application/json", "x-memledger-agent": "a".repeat(101) })
    expect(agent.status, agent.text).toBe(400)
    expect(agent.json().message).toContain("x-memledger-agent")
    expect((await server.call("GET", "/memories?all=true")).json().memories).toEqual([])
  })
})

describe("a body that fails its schema", () => {
  it("answers the CLI's and the SDK's tags: InvalidContent, UnknownCategory, InvalidId", async () => {
    const empty = await post("/memories", '{"content": ""}')
    expect(empty.status, empty.text).toBe(400)
    expect(empty.json().error).toBe("InvalidContent")
    expect((await post("/memories", `{"content": "${"x".repeat(20_000)}"}`)).json().error).toBe("InvalidContent")
    expect((await post("/search", '{"query": "x", "category": "nonsense"}')).json().error).toBe("UnknownCategory")
    expect((await post("/memories", '{"content": "a fine note", "confirms": "abc"}')).json().error).toBe("InvalidId")
    const limit = await post("/search", '{"query": "x", "limit": "ten"}')
    expect(limit.json()).toMatchObject({ error: "InvalidInput", message: expect.stringContaining("'limit'") })
  })

  it("answers the same tag on the HttpApi bridge", async () => {
    const bridged = await rawRequest(server.url, "PATCH", `/memories/${BRIDGED_ID}`, { "content-type": "application/json" }, '{"content": ""}')
    expect(bridged.status, bridged.text).toBe(400)
    expect(bridged.json().error).toBe("InvalidContent")
  })
})

describe("a known path with a method it does not take", () => {
  it("answers 405 with an Allow header, not 404", async () => {
    for (const [method, path, allow] of [
      ["DELETE", "/memories/01zzzzzzzzzzzzzzzzzzzzzzzz", "GET, HEAD, PATCH"],
      ["GET", "/search", "POST"],
      ["POST", "/stats", "GET, HEAD"],
      ["PUT", "/memories", "GET, HEAD, POST"],
      ["POST", "/openapi.json", "GET, HEAD"]
    ] as const) {
      const answer = await rawRequest(server.url, method, path)
      expect(answer.status, `${method} ${path}`).toBe(405)
      expect(answer.headers.get("allow"), `${method} ${path}`).toBe(allow)
      expect(answer.json()).toMatchObject({ error: "MethodNotAllowed", status: 405 })
    }
    expect((await rawRequest(server.url, "GET", "/nowhere")).status).toBe(404)
    expect((await rawRequest(server.url, "HEAD", "/stats")).status).toBe(200)
  })
})

describe("fields a body does not declare", () => {
  it("are refused on every endpoint with a body, also those whose payload is built from an input's fields, and nothing is written", async () => {
    const created = await post("/memories", '{"content": "Fields beyond the schema are refused"}')
    expect(created.status, created.text).toBe(200)
    const id = created.json().id as string
    const eventsBefore = (await rawRequest(server.url, "GET", "/stats")).json().events
    for (const [method, path, body] of [
      ["POST", "/memories", '{"content": "one more note", "extra": 1}'],
      ["PATCH", `/memories/${id}`, '{"scope": "project"}'],
      ["POST", `/memories/${id}/forget`, '{"bogus": true}'],
      ["POST", `/memories/${id}/confirm`, '{"bogus": true}'],
      ["POST", "/conversations/forget", '{"origin": "rest", "undo": true}']
    ] as const) {
      const answer = await rawRequest(server.url, method, path, { "content-type": "application/json" }, body)
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(400)
      expect(answer.json().message, `${method} ${path}`).toMatch(/is unexpected/)
    }
    expect((await rawRequest(server.url, "GET", "/stats")).json().events).toBe(eventsBefore)
  })
})
