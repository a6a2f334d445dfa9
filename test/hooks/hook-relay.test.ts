/**
 * Hooks handed to the store's MCP server: while `mem mcp` holds a store open, a hook that uses
 * the store sends its run over the server's socket instead of loading and opening the store
 * itself, and gets what it would have got in its own process. Real processes, a real socket,
 * a real store file.
 */
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { createConnection } from "node:net"
import { join, resolve } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { hookSocketPath, type HookRequest } from "../../src/hooks/hook-request.js"
import { relayHook } from "../../src/adapters/hook/relay-client.js"
import { listenForHooks, type HookRelay } from "../../src/adapters/hook/relay-server.js"
import { runStoreHook } from "../../src/adapters/hook/store-hook.js"
import { operationsRuntime, type OperationsRuntime } from "../../src/adapters/mcp/runtime.js"
import { mem, memAt, tempDir } from "../support/cli.js"
import { connectStdio } from "../mcp/support.js"
import { startServe, stopAllServers } from "../support/serve.js"

const cleanups: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  stopAllServers()
})

/** A store file with one global memory, which a prompt about deploying finds. */
const storeWithMemory = () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  expect(memAt(db)("add", "Deploy the web app with fly deploy --strategy bluegreen", "--global", "-c", "command").code).toBe(0)
  return { dir, db }
}

/** That store, and a runtime over it as `mem mcp` holds one. */
const storeWithRuntime = async () => {
  const { dir, db } = storeWithMemory()
  const runtime = operationsRuntime(db)
  await runtime.ready()
  cleanups.push(() => runtime.dispose())
  return { dir, db, runtime }
}

const listening = async (db: string, runtime: OperationsRuntime): Promise<HookRelay> => {
  const relay = await listenForHooks(db, runtime.run)
  expect(relay).toBeDefined()
  cleanups.push(() => relay!.close())
  return relay!
}

const request = (dir: string, db: string, event: HookRequest["event"], prompt?: string): HookRequest => ({
  event,
  agent: "claude-code",
  input: { session_id: "relay", cwd: dir, ...(prompt === undefined ? {} : { prompt }) },
  place: { dbPath: db, sessionId: "relay", nowIso: "2026-12-02T10:00:00.000Z" },
  cwd: dir,
  env: { ...process.env } as Record<string, string>
})

describe("the relay, socket to runtime", () => {
  it("answers a hook as the hook's own process would, and a relayed prompt finds the memory", async () => {
    const { dir, db, runtime } = await storeWithRuntime()
    const relay = await listening(db, runtime)
    expect(relay.path).toBe(hookSocketPath(db))
    const relayed = await relayHook(relay.path, request(dir, db, "session-start"), 5_000)
    const own = await runStoreHook(db, request(dir, db, "session-start"))
    expect(relayed).toEqual(own)
    expect(JSON.stringify(relayed)).toContain("fly deploy")
    const prompt = await relayHook(relay.path, request(dir, db, "user-prompt-submit", "how do we deploy the web app?"), 5_000)
    expect(prompt).toMatchObject({ output: { hookSpecificOutput: { hookEventName: "UserPromptSubmit" } } })
    expect(JSON.stringify(prompt)).toContain("fly deploy")
  })

  it("says there is no server where none listens, so the hook runs itself", async () => {
    const { dir, db } = await storeWithRuntime()
    expect(existsSync(hookSocketPath(db)!)).toBe(false)
    expect(await relayHook(hookSocketPath(db)!, request(dir, db, "session-start"), 5_000)).toBeUndefined()
  })

  it("answers a request it cannot read with a failure, and goes on answering", async () => {
    const { dir, db, runtime } = await storeWithRuntime()
    const relay = await listening(db, runtime)
    const bad = await relayHook(relay.path, { ...request(dir, db, "session-start"), event: "post-tool-use" }, 5_000)
    expect(bad).toEqual({ failure: "not a hook that uses the store: post-tool-use" })
    const noSession = await relayHook(relay.path, { ...request(dir, db, "session-start"), place: {} as never }, 5_000)
    expect(noSession).toMatchObject({ failure: expect.stringContaining("lacks its agent, folder, session") })
    expect(await relayHook(relay.path, request(dir, db, "session-start"), 5_000)).toMatchObject({ output: { hookSpecificOutput: { hookEventName: "SessionStart" } } })
  })

  it("when it closes, drops a connection still sending, so that nothing holds the server open", async () => {
    const { db, runtime } = await storeWithRuntime()
    const relay = await listenForHooks(db, runtime.run)
    const silent = createConnection(relay!.path)
    await new Promise((connected) => silent.once("connect", connected))
    const dropped = new Promise((closed) => silent.once("close", closed))
    await relay!.close()
    await dropped
    expect(existsSync(relay!.path)).toBe(false)
  })

  it("replaces the socket a killed server left, and leaves a live server's alone", async () => {
    const { dir, db, runtime } = await storeWithRuntime()
    const path = hookSocketPath(db)!
    // A process that listens there, then dies without closing: its socket file stays.
    const holder = spawn(process.execPath, ["-e", `require("node:fs").mkdirSync(require("node:path").dirname(${JSON.stringify(path)}), { recursive: true }); require("node:net").createServer().listen(${JSON.stringify(path)}, () => console.log("up"))`])
    await new Promise((ready) => holder.stdout.once("data", ready))
    holder.kill("SIGKILL")
    await new Promise((gone) => holder.once("close", gone))
    expect(existsSync(path)).toBe(true)
    expect(await relayHook(path, request(dir, db, "session-start"), 5_000)).toBeUndefined()

    await listening(db, runtime)
    expect(await relayHook(path, request(dir, db, "session-start"), 5_000)).toMatchObject({ output: { hookSpecificOutput: { hookEventName: "SessionStart" } } })
    expect(await listenForHooks(db, runtime.run)).toBeUndefined()
    expect(await relayHook(path, request(dir, db, "session-start"), 5_000)).toMatchObject({ output: { hookSpecificOutput: { hookEventName: "SessionStart" } } })
  })
})

/** The bundles a `mem` process compiled, in order (test/support/record-bundles.cjs). */
const bundlesRun = (args: ReadonlyArray<string>, input: unknown, env: Record<string, string> = {}) => {
  const record = join(tempDir(), "bundles.txt")
  const run = mem(args, { input: JSON.stringify(input), env: { ...env, NODE_OPTIONS: `--require ${resolve("test/support/record-bundles.cjs")}`, RECORD_BUNDLES: record } })
  expect(run.code, run.stderr).toBe(0)
  return { stdout: run.stdout, bundles: existsSync(record) ? readFileSync(record, "utf8").trim().split("\n") : [] }
}

describe("hooks while `mem mcp` runs on the store", () => {
  it("go through the server, loading no store code, and run themselves again once it has gone", async () => {
    const { dir, db } = storeWithMemory()
    const input = { session_id: "relay-e2e", cwd: dir, prompt: "how do we deploy the web app?" }
    const server = await connectStdio(db)
    cleanups.push(() => server.close())
    // Answered once the client is: the server listens for hooks before it takes the protocol.
    expect(existsSync(hookSocketPath(db)!)).toBe(true)

    expect(mem(["--db", db, "doctor", "--json"]).json().hooks).toMatch(/^handed to the server that listens at .*hooks-1\.sock/)
    const relayed = bundlesRun(["--db", db, "hook", "user-prompt-submit"], input)
    expect(relayed.bundles).toEqual(["hook.cjs"])
    expect(relayed.stdout).toContain("fly deploy")
    const own = bundlesRun(["--db", db, "hook", "user-prompt-submit"], input, { MEMLEDGER_HOOK_RELAY: "off" })
    expect(own.bundles).toEqual(["hook.cjs", "hook-store.cjs"])
    expect(own.stdout).toBe(relayed.stdout)

    await server.close()
    expect(existsSync(hookSocketPath(db)!)).toBe(false)
    expect(mem(["--db", db, "doctor", "--json"]).json().hooks).toMatch(/^each in its own process now/)
    const after = bundlesRun(["--db", db, "hook", "user-prompt-submit"], input)
    expect(after.bundles).toEqual(["hook.cjs", "hook-store.cjs"])
    expect(after.stdout).toBe(relayed.stdout)
  })
})

describe("hooks while `mem serve` runs on the store", () => {
  it("go through the server too, and the socket goes with it", async () => {
    const { dir, db } = storeWithMemory()
    const input = { session_id: "relay-serve", cwd: dir, source: "startup" }
    const server = await startServe(db)
    const relayed = bundlesRun(["--db", db, "hook", "session-start"], input)
    expect(relayed.bundles).toEqual(["hook.cjs"])
    expect(relayed.stdout).toContain("fly deploy")
    expect((await server.stop("SIGTERM")).code).toBe(0)
    expect(existsSync(hookSocketPath(db)!)).toBe(false)
  })
})
