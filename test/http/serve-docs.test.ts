/**
 * docs/serve.md's curl example is code: it runs against a real `mem serve`, and what it stores
 * it must find. And the action routes take the body curl sends with a bare `-X POST`: none.
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tempDir } from "../support/cli.js"
import { startServe, stopAllServers, type Served } from "../support/serve.js"

let server: Served
beforeAll(async () => {
  server = await startServe(join(tempDir(), "m.db"))
})
afterAll(stopAllServers)

const curlExample = (): string => {
  const block = /<!-- curl:start -->\s*```\n([\s\S]*?)```\s*<!-- curl:end -->/.exec(readFileSync("docs/serve.md", "utf8"))?.[1]
  if (block === undefined) throw new Error("docs/serve.md has no curl example block")
  return block
}

describe("docs/serve.md", () => {
  it("runs its curl example as written, and the search finds the memory the example stored", () => {
    // Each answer on a line of its own (curl prints none after the body), at this server's address.
    const script = `set -euo pipefail\ncurl() { command curl "$@"; echo; }\n${curlExample().replaceAll("http://127.0.0.1:7077", server.url)}`
    const result = spawnSync("bash", ["-c", script], { encoding: "utf8" })
    expect(result.status, result.stderr).toBe(0)
    const answers = result.stdout.trim().split("\n").map((line) => JSON.parse(line))
    expect(answers[0]).toMatchObject({ stored: true })
    const search = answers.find((a) => "results" in a)
    expect(search.results.map((r: { id: string }) => r.id)).toContain(answers[0].id)
  })
})

describe("action routes", () => {
  it("take an empty body as no fields, answered directly or through HttpApi (an id with a percent-escape)", async () => {
    const { id } = (await server.call("POST", "/memories", { content: "Tests run with vitest", scope: "global" })).json()
    const escaped = `%${id.charCodeAt(0).toString(16)}${id.slice(1)}`
    for (const [path, expected] of [
      [`/memories/${id}/confirm`, { id, confirmations: 2 }],
      [`/memories/${id}/forget`, { id, forgotten: true, changed: true }],
      [`/memories/${escaped}/restore`, { id, forgotten: false, changed: true }],
      [`/memories/${escaped}/confirm`, { id, confirmations: 3 }]
    ] as const) {
      const answer = await server.call("POST", path)
      expect(answer.status, `${path}: ${answer.text}`).toBe(200)
      expect(answer.json()).toMatchObject(expected)
    }
    const typed = await server.call("POST", `/memories/${id}/confirm`, undefined, { "content-type": "application/json" })
    expect(typed.status, typed.text).toBe(200)
  })

  it("still refuses an empty body where a field is required, naming the field", async () => {
    const answer = await server.call("POST", "/memories")
    expect(answer.status).toBe(400)
    expect(answer.text).toMatch(/content/)
  })
})
