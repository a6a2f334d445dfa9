/**
 * Bad input, generated with fast-check, to every endpoint of the real server: wrong types,
 * missing fields, oversized strings and bodies, unknown ids, malformed JSON, junk query
 * parameters. Each gets a JSON `{error, message, status}` with a 4xx status (never a 500,
 * never a dropped connection), and nothing is written: the event count is unchanged.
 */
import { join } from "node:path"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempDir } from "../support/cli.js"
import { startServe, stopAllServers, type Answer, type Served } from "../support/serve.js"

/** text: 1+ characters; note: may be empty, so only its type and length can be wrong. */
type Kind = "text" | "note" | "id" | "ids" | "tags" | "cues" | "phrasings" | "category" | "scope" | "outcome" | "int" | "bool"

interface Endpoint {
  readonly method: "POST" | "PATCH"
  /** `{id}` is replaced by a real memory's id. */
  readonly path: string
  /** A valid body; never sent as is. */
  readonly body: Record<string, unknown>
  readonly fields: Record<string, Kind>
  readonly required: ReadonlyArray<string>
}

let server: Served
let knownId = ""

const BODY_ENDPOINTS: ReadonlyArray<Endpoint> = [
  {
    method: "POST",
    path: "/memories",
    body: { content: "fast-check probe that must never be stored", scope: "global" },
    fields: {
      content: "text",
      category: "category",
      scope: "scope",
      project: "text",
      tags: "tags",
      cues: "cues",
      confirms: "id",
      supersedes: "id",
      distinct_from: "id",
      origin: "text"
    },
    required: ["content"]
  },
  { method: "PATCH", path: "/memories/{id}", body: { content: "edited by a probe" }, fields: { content: "text", category: "category", tags: "tags", cues: "cues", origin: "text" }, required: [] },
  { method: "POST", path: "/memories/{id}/forget", body: { reason: "probe" }, fields: { reason: "note", origin: "text" }, required: [] },
  { method: "POST", path: "/memories/{id}/restore", body: {}, fields: { reason: "note", origin: "text" }, required: [] },
  { method: "POST", path: "/memories/{id}/confirm", body: {}, fields: { origin: "text" }, required: [] },
  { method: "POST", path: "/memories/{id}/supersede", body: { by: "{id}" }, fields: { by: "id", origin: "text" }, required: ["by"] },
  { method: "POST", path: "/memories/{id}/cues/drop", body: { cue: "a learned cue" }, fields: { cue: "text", origin: "text" }, required: ["cue"] },
  {
    method: "POST",
    path: "/search",
    body: { query: "probe" },
    fields: { query: "text", also: "phrasings", limit: "int", project: "text", category: "category", task: "text", origin: "text" },
    required: ["query"]
  },
  { method: "POST", path: "/why", body: { query: "probe" }, fields: { query: "text", also: "phrasings", limit: "int", project: "text", category: "category", at: "text" }, required: ["query"] },
  { method: "POST", path: "/context", body: { query: "probe" }, fields: { project: "text", query: "text", also: "phrasings", budget: "int", task: "text", origin: "text" }, required: [] },
  {
    method: "POST",
    path: "/outcomes",
    body: { memory_ids: ["{id}"], outcome: "worked" },
    fields: { memory_ids: "ids", outcome: "outcome", task: "text", note: "note", origin: "text" },
    required: ["memory_ids", "outcome"]
  },
  { method: "POST", path: "/conversations/forget", body: { origin: "probe:conversation" }, fields: { origin: "text" }, required: ["origin"] },
  { method: "POST", path: "/conversations/restore", body: { origin: "probe:conversation" }, fields: { origin: "text" }, required: ["origin"] }
]

const GET_PARAMS: Record<string, Record<string, Kind>> = {
  "/memories": { project: "text", category: "category", all: "bool", limit: "int" },
  "/events": { after: "int", before: "int", newest_first: "bool", limit: "int", memory: "id", origin: "text" }
}

/** Ids made of Crockford base32 that no memory has (a prefix of nothing stored). */
const unknownId = fc.stringMatching(/^[0-9a-hjkmnp-tv-z]{8,26}$/).map((s) => `zz${s}`.slice(0, 26))

/** A JSON value of the wrong type (or out of range) for a field of `kind`. */
const wrongValue = (kind: Kind): fc.Arbitrary<unknown> => {
  const notString = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 3 }), fc.constant({ nested: true }))
  // An empty list is a valid list of cues or phrasings.
  const notArray = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant({ nested: true }))
  switch (kind) {
    case "text":
      return fc.oneof(notString, fc.constant(""), fc.string({ minLength: 10_001, maxLength: 12_000 }))
    case "note":
      return fc.oneof(notString, fc.string({ minLength: 10_001, maxLength: 12_000 }))
    case "id":
      return fc.oneof(notString, fc.string({ maxLength: 5 }), fc.string({ minLength: 27, maxLength: 60 }), unknownId)
    case "ids":
      return fc.oneof(notString, fc.constant([]), fc.array(fc.integer(), { minLength: 1, maxLength: 3 }), fc.array(unknownId, { minLength: 1, maxLength: 3 }))
    case "tags":
      return fc.oneof(fc.integer(), fc.boolean(), fc.string(), fc.array(fc.integer(), { minLength: 1, maxLength: 3 }), fc.array(fc.constant(""), { minLength: 1, maxLength: 2 }))
    case "cues":
      return fc.oneof(
        notArray,
        fc.string({ minLength: 1 }),
        fc.array(fc.string({ minLength: 1, maxLength: 20 }), { minLength: 6, maxLength: 8 }),
        fc.constant([""]),
        fc.constant(["x".repeat(401)]),
        fc.constant([Array.from({ length: 33 }, (_, i) => `word${i}`).join(" ")])
      )
    case "phrasings":
      return fc.oneof(
        notArray,
        fc.string({ minLength: 1 }),
        fc.array(fc.string({ minLength: 1, maxLength: 20 }), { minLength: 6, maxLength: 8 }),
        fc.constant([""]),
        fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
        fc.constant(["y".repeat(10_001)])
      )
    case "category":
    case "scope":
    case "outcome":
      return fc.oneof(notString, fc.constantFrom("gotchas", "GLOBAL", "success", ""))
    case "int":
      return fc.oneof(fc.string(), fc.boolean(), fc.constant(null), fc.double({ min: 1.1, max: 99.9, noInteger: true }), fc.integer({ min: -1000, max: 0 }), fc.integer({ min: 200_000, max: 2 ** 40 }))
    case "bool":
      return fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.array(fc.boolean(), { maxLength: 2 }))
  }
}

const withId = (value: unknown): unknown =>
  typeof value === "string" ? value.replace("{id}", knownId) : Array.isArray(value) ? value.map(withId) : value

const validBody = (e: Endpoint) => Object.fromEntries(Object.entries(e.body).map(([k, v]) => [k, withId(v)]))
const pathOf = (e: Endpoint, id = knownId) => e.path.replace("{id}", encodeURIComponent(id))

/** One corruption of an endpoint's valid body: a field of the wrong type, or a required field missing. */
const corruptedBody = (e: Endpoint): fc.Arbitrary<Record<string, unknown>> => {
  const wrongField = fc
    .constantFrom(...Object.keys(e.fields))
    .chain((field) => wrongValue(e.fields[field]!).map((value) => ({ ...validBody(e), [field]: value })))
  if (e.required.length === 0) return wrongField
  const missing = fc.constantFrom(...e.required).map((field) => {
    const { [field]: _, ...rest } = validBody(e)
    return rest
  })
  return fc.oneof(wrongField, missing)
}

const expectRefused = (answer: Answer, what: string) => {
  expect(answer.status, `${what} -> ${answer.status} ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400)
  expect(answer.status, `${what} -> ${answer.text.slice(0, 300)}`).toBeLessThan(500)
  const body = answer.json()
  expect(body).toMatchObject({ error: expect.any(String), message: expect.any(String), status: answer.status })
  expect(body.message.length).toBeGreaterThan(0)
}

const eventCount = async () => (await server.call("GET", "/stats")).json().events as number

const RUNS = 25

beforeAll(async () => {
  server = await startServe(join(tempDir(), "m.db"))
  const stored = (await server.call("POST", "/memories", { content: "Memory the bad input aims at", scope: "global" })).json()
  knownId = stored.id
  // The conversation exists, so forgetting it would be a real write were the input accepted.
  await server.call("POST", "/memories", { content: "A memory of the probe conversation", scope: "global", origin: "probe:conversation" })
})
afterAll(stopAllServers)

describe("bad input to every endpoint", () => {
  it("wrong types and missing fields in bodies", async () => {
    const before = await eventCount()
    for (const e of BODY_ENDPOINTS) {
      await fc.assert(
        fc.asyncProperty(corruptedBody(e), async (body) => {
          expectRefused(await server.call(e.method, pathOf(e), body), `${e.method} ${e.path} ${JSON.stringify(body).slice(0, 200)}`)
        }),
        { numRuns: RUNS }
      )
    }
    expect(await eventCount()).toBe(before)
  })

  it("malformed JSON, bodies that are not objects, and the wrong content type", async () => {
    const before = await eventCount()
    const notJson = fc.string({ minLength: 1, maxLength: 200 }).filter((s) => !isJson(s))
    const notObject = fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.array(fc.integer())).map((v) => JSON.stringify(v))
    for (const e of BODY_ENDPOINTS) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(notJson, notObject), async (text) => {
          expectRefused(await server.call(e.method, pathOf(e), text), `${e.method} ${e.path} ${text.slice(0, 100)}`)
        }),
        { numRuns: RUNS }
      )
      const plain = await server.call(e.method, pathOf(e), undefined, { "content-type": "text/plain" })
      expectRefused(plain, `${e.method} ${e.path} with no body`)
    }
    expect(await eventCount()).toBe(before)
  })

  it("bodies over the 1 MiB limit get 413 and URLs over 16 KiB 431, with the server intact", async () => {
    const before = await eventCount()
    for (const e of BODY_ENDPOINTS) {
      const huge = JSON.stringify({ ...validBody(e), content: "x".repeat(1024 * 1024 + 10), query: "y".repeat(1024 * 1024 + 10) })
      const answer = await server.call(e.method, pathOf(e), huge)
      expectRefused(answer, `${e.method} ${e.path} huge`)
      expect(answer.json().error).toBe("PayloadTooLarge")
    }
    // A query string past node's 16 KiB header limit is refused before any route sees it.
    const longUrl = await server.call("GET", `/memories?project=${"p".repeat(20_000)}`)
    expectRefused(longUrl, "GET /memories with a 20 KB query string")
    expect(longUrl.status).toBe(431)
    expect((await server.call("GET", "/health")).status).toBe(200)
    expect(await eventCount()).toBe(before)
  })

  it("unknown and malformed ids in the path", async () => {
    const before = await eventCount()
    // "." and ".." are dot segments: URL clients resolve them away before sending ("/memories/."
    // is "/memories/", the list), so as ids they never reach a route.
    const badId = fc
      .oneof(unknownId, fc.string({ minLength: 1, maxLength: 5 }), fc.string({ minLength: 27, maxLength: 80 }))
      .filter((id) => id !== "." && id !== "..")
    const idEndpoints = BODY_ENDPOINTS.filter((e) => e.path.includes("{id}"))
    await fc.assert(
      fc.asyncProperty(badId, fc.constantFrom(...idEndpoints), async (id, e) => {
        const get = await server.call("GET", `/memories/${encodeURIComponent(id)}`)
        expectRefused(get, `GET /memories/${id}`)
        expectRefused(await server.call(e.method, pathOf(e, id), validBody(e)), `${e.method} ${pathOf(e, id)}`)
      }),
      { numRuns: RUNS * 2 }
    )
    expect(await eventCount()).toBe(before)
  })

  it("junk query parameters", async () => {
    const before = await eventCount()
    for (const [path, params] of Object.entries(GET_PARAMS)) {
      const junk = fc
        .constantFrom(...Object.keys(params))
        .chain((name) => junkParam(params[name]!).map((value) => ({ name, value })))
      await fc.assert(
        fc.asyncProperty(junk, fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }), async ({ name, value }, extra) => {
          const query = new URLSearchParams({ ...extra, [name]: value }).toString()
          expectRefused(await server.call("GET", `${path}?${query}`), `GET ${path}?${query}`)
        }),
        { numRuns: RUNS }
      )
    }
    expect(await eventCount()).toBe(before)
  })

  it("unknown routes and methods", async () => {
    const segment = fc.stringMatching(/^[a-z0-9-]{1,12}$/)
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 3 }), fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"), async (segments, method) => {
        const path = `/nothing-here/${segments.join("/")}`
        const answer = await server.call(method, path)
        expectRefused(answer, `${method} ${path}`)
        expect(answer.json().error).toBe("NotFound")
      }),
      { numRuns: RUNS }
    )
    for (const [method, path] of [["DELETE", "/memories"], ["PUT", "/search"], ["GET", "/search"], ["POST", "/stats"]] as const) {
      expectRefused(await server.call(method, path), `${method} ${path}`)
    }
  })
})

/** A query-string value that a parameter of `kind` must refuse. */
const junkParam = (kind: Kind): fc.Arbitrary<string> => {
  switch (kind) {
    case "int":
      return fc.oneof(fc.stringMatching(/^[a-z]{1,6}$/), fc.constantFrom("-1", "1.5", "Infinity", "1e3x"))
    case "bool":
      return fc.constantFrom("yes", "1", "TRUE", "", "maybe")
    case "category":
      return fc.constantFrom("gotchas", "", "GENERAL")
    case "id":
      return fc.oneof(fc.string({ maxLength: 5 }), fc.string({ minLength: 27, maxLength: 40 }))
    default:
      return fc.oneof(fc.constant(""), fc.string({ minLength: 1001, maxLength: 1200 }))
  }
}

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
