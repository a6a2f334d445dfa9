/**
 * A smoke run of the official MCP Inspector in CLI mode against `mem mcp`: a client we did not
 * write lists the tools and calls one.
 */
import { spawnSync } from "node:child_process"
import { resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { MEM_BIN } from "../support/cli.js"
import { freshDb } from "./support.js"

const INSPECTOR = resolve("node_modules/.bin/mcp-inspector-cli")

const inspect = (db: string, ...method: string[]) => {
  const run = spawnSync(INSPECTOR, ["--cli", process.execPath, MEM_BIN, "--db", db, "mcp", ...method], {
    encoding: "utf8",
    env: { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_EMBEDDER: "none" },
    timeout: 120_000
  })
  expect(run.status, run.stderr).toBe(0)
  return JSON.parse(run.stdout)
}

describe("the MCP Inspector (CLI mode)", () => {
  it("lists the tools and calls stats", () => {
    const db = freshDb()
    const listed = inspect(db, "--method", "tools/list")
    expect(listed.tools.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["remember", "recall", "record_outcome", "stats"]))
    const stats = inspect(db, "--method", "tools/call", "--tool-name", "stats")
    expect(stats.isError).toBeFalsy()
    expect(stats.structuredContent).toMatchObject({ path: db, events: 0, memories: { live: 0 } })
  })
})
