/**
 * The served OpenAPI document is valid OpenAPI 3.1 and lists every endpoint; /docs renders
 * every endpoint for people without fetching or running anything.
 */
import { join } from "node:path"
import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempDir } from "../support/cli.js"
import { startServe, stopAllServers, type Served } from "../support/serve.js"

const ENDPOINTS = [
  "POST /memories",
  "GET /memories",
  "POST /memories/review",
  "GET /memories/{id}",
  "PATCH /memories/{id}",
  "POST /memories/{id}/forget",
  "POST /memories/{id}/restore",
  "POST /memories/{id}/confirm",
  "POST /memories/{id}/supersede",
  "GET /memories/{id}/record",
  "GET /memories/{id}/cues",
  "POST /memories/{id}/cues/drop",
  "POST /search",
  "POST /why",
  "POST /context",
  "POST /outcomes",
  "GET /conversations",
  "POST /conversations/forget",
  "POST /conversations/restore",
  "GET /stats",
  "GET /events",
  "GET /health",
  "GET /overview",
  "GET /tasks",
  "POST /purge",
  "GET /events/live"
]

let server: Served
beforeAll(async () => {
  server = await startServe(join(tempDir(), "m.db"))
})
afterAll(stopAllServers)

describe("/openapi.json", () => {
  it("validates as OpenAPI 3.1 and lists every endpoint", async () => {
    const answer = await server.call("GET", "/openapi.json")
    expect(answer.status).toBe(200)
    const document = answer.json()
    const validator = new Validator()
    const result = await validator.validate(document)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")

    const listed = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)
    )
    expect(listed.sort()).toEqual([...ENDPOINTS].sort())
  })
})

describe("what the server in front of the API does", () => {
  it("is in the document: the token on every operation but GET /health, 401, 413 and 415 where they are answered", async () => {
    const document = (await server.call("GET", "/openapi.json")).json()
    // Optional, not "none": a loopback server without a token takes requests without one.
    expect(document.security).toEqual([{ bearer: [] }, {}])
    expect(document.components.securitySchemes.bearer).toEqual({ type: "http", scheme: "bearer" })
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, { security?: unknown; responses: object; requestBody?: unknown }>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        const name = `${method.toUpperCase()} ${path}`
        const statuses = Object.keys(operation.responses)
        if (path === "/health") {
          expect(operation.security, name).toEqual([])
          expect(statuses, name).not.toContain("401")
        } else {
          // No security of its own: the document's (the bearer token) applies.
          expect(operation.security, name).toBeUndefined()
          expect(statuses, name).toContain("401")
        }
        if (operation.requestBody !== undefined) expect(statuses, name).toEqual(expect.arrayContaining(["413", "415"]))
      }
    }
  })
})

describe("/docs", () => {
  it("renders every endpoint as HTML that loads and runs nothing", async () => {
    const answer = await server.call("GET", "/docs")
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-type")).toMatch(/^text\/html/)
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'")
    const html = answer.text
    for (const endpoint of ENDPOINTS) {
      const [method, path] = endpoint.split(" ")
      expect(html, endpoint).toContain(`<span class="method">${method}</span> <code>${path}</code>`)
    }
    // No network at run time: no script at all, and nothing fetched from elsewhere.
    expect(html).not.toMatch(/<script/i)
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i)
    // The fields of a body are documented with their descriptions.
    expect(html).toContain("what you are looking for, in plain words")
  })
})
