/**
 * A hook loads only what it needs: post-tool-use, after every shell command, runs the small hook
 * bundle alone, which holds no dependency at all; the hooks that use the store add the store
 * bundle; neither ever loads the CLI's bundle or @effect/cli. Read from what each bundle was
 * built from (its source map) and from which bundles a real hook process compiles.
 */
import { existsSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, tempDir } from "../support/cli.js"

const sourcesOf = (bundle: string): ReadonlyArray<string> => (JSON.parse(readFileSync(`dist/${bundle}.map`, "utf8")) as { sources: string[] }).sources

/** The bundles a `mem` process compiled, in order. */
const bundlesRun = (args: ReadonlyArray<string>, input: unknown, env: Record<string, string> = {}): ReadonlyArray<string> => {
  const record = join(tempDir(), "bundles.txt")
  const run = mem(args, { input: JSON.stringify(input), env: { ...env, NODE_OPTIONS: `--require ${resolve("test/support/record-bundles.cjs")}`, RECORD_BUNDLES: record } })
  expect(run.code, run.stderr).toBe(0)
  return existsSync(record) ? readFileSync(record, "utf8").trim().split("\n") : []
}

describe("what a hook loads", () => {
  it("the hook bundle is built from memledger's own plain modules only: no Effect, no CLI", () => {
    const sources = sourcesOf("hook.cjs")
    expect(sources).toContain("../src/hooks/tool-use.ts")
    expect(sources.filter((source) => source.includes("node_modules/"))).toEqual([])
  })

  it("the store bundle holds no @effect/cli, no MCP SDK and no CLI command", () => {
    const sources = sourcesOf("hook-store.cjs")
    expect(sources.some((source) => source.includes("node_modules/effect/"))).toBe(true)
    expect(sources.filter((source) => /@effect\/cli|@modelcontextprotocol|src\/adapters\/(cli|mcp|http)\//.test(source))).toEqual([])
  })

  it("no bundle holds fast-check, which Effect's Schema refers to for the arbitraries only tests derive", () => {
    for (const bundle of ["hook-store.cjs", "hook-remote.cjs", "mem.cjs"]) {
      expect(sourcesOf(bundle).filter((source) => source.includes("node_modules/fast-check/")), bundle).toEqual([])
    }
  })

  it("the store bundle holds no HTTP client, and no module of it waits for a dynamic import", () => {
    const sources = sourcesOf("hook-store.cjs")
    expect(sources.filter((source) => /@effect\/platform|src\/api\/operations-remote/.test(source))).toEqual([])
    // esbuild wraps whatever a dynamic import reaches in lazy initialisers, Effect's index with
    // all it re-exports (its test services too), all evaluated on every start.
    expect(sources.filter((source) => /node_modules\/effect\/dist\/esm\/(index|TestClock)\.js$/.test(source))).toEqual([])
    expect(sourcesOf("hook-remote.cjs")).toContain("../src/api/operations-remote.ts")
  })

  it("post-tool-use and pre-compact run the hook bundle alone; the other hooks add the store bundle, never the CLI", () => {
    const dir = tempDir()
    const db = join(dir, "m.db")
    const input = { session_id: "bundles", cwd: dir, tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: { stdout: "3 passed, 0 failed\n" } }
    expect(bundlesRun(["--db", db, "hook", "post-tool-use"], input)).toEqual(["hook.cjs"])
    expect(bundlesRun(["--db", db, "hook", "pre-compact"], input)).toEqual(["hook.cjs"])
    expect(bundlesRun(["--db", db, "hook", "session-start", "--agent", "codex"], input)).toEqual(["hook.cjs", "hook-store.cjs"])
  })

  it("with a server configured and no --db, the hooks that use the store load the HTTP client's bundle instead of the store's", () => {
    const dir = tempDir()
    // Nothing listens there: the hook logs that and exits 0, having loaded what it needed.
    const env = { MEMLEDGER_URL: "http://127.0.0.1:9", HOME: dir }
    expect(bundlesRun(["hook", "stop"], { session_id: "bundles", cwd: dir }, env)).toEqual(["hook.cjs", "hook-remote.cjs"])
    expect(bundlesRun(["--db", join(dir, "m.db"), "hook", "stop"], { session_id: "bundles", cwd: dir }, env)).toEqual(["hook.cjs", "hook-store.cjs"])
  })

  it("a hook loads no module it does not use: no thread, no child process, no vector extension; post-tool-use no socket", () => {
    const dir = tempDir()
    const record = join(dir, "modules.txt")
    const input = { session_id: "modules", cwd: dir, source: "startup", prompt: "how do we deploy" }
    // Its stdin and stdout are pipes here, as an agent gives them: through process.stdin or
    // process.stdout, each would be a socket, and node:net loaded for it. (Effect's logger looks
    // at process.stdout as it loads, so the hooks that load Effect load node:net all the same.)
    const tool = mem(["--db", join(dir, "m.db"), "hook", "post-tool-use"], {
      input: JSON.stringify({ ...input, tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "" } }),
      env: { NODE_OPTIONS: `--require ${resolve("test/support/record-modules.cjs")}`, RECORD_MODULES: record }
    })
    expect(tool.code, tool.stderr).toBe(0)
    expect(readFileSync(record, "utf8").split("\n").filter((m) => ["node:net", "better-sqlite3", "effect"].includes(m))).toEqual([])
    for (const event of ["session-start", "user-prompt-submit", "stop"]) {
      const run = mem(["--db", join(dir, "m.db"), "hook", event], {
        input: JSON.stringify(input),
        env: { NODE_OPTIONS: `--require ${resolve("test/support/record-modules.cjs")}`, RECORD_MODULES: record }
      })
      expect(run.code, run.stderr).toBe(0)
      const loaded = readFileSync(record, "utf8").split("\n")
      expect(loaded, event).toContain("better-sqlite3")
      expect(loaded.filter((m) => ["node:worker_threads", "node:child_process", "sqlite-vec", "@effect/platform", "@effect/cli"].includes(m)), event).toEqual([])
    }
  })

  it("a command line that is not a plain hook call goes on to the CLI, which answers it", () => {
    expect(bundlesRun(["hook", "--help"], {})).toEqual(["hook.cjs", "mem.cjs"])
    expect(bundlesRun(["stats", "--help"], {})).toEqual(["mem.cjs"])
  })
})
