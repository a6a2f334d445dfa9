/**
 * The hooks against a shared server (MEMLEDGER_URL): they load the HTTP client, from a bundle of
 * its own, only then, and work through the server's Operations as every other surface does.
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { memAsync } from "../support/cli-async.js"
import { MEM_BIN, tempDir } from "../support/cli.js"
import { startRestServer } from "../support/rest-server.js"

/** A hook process fed `input`, without blocking this process, which serves its requests. */
const hookAsync = (event: string, input: unknown, env: Record<string, string>): Promise<{ code: number; stdout: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MEM_BIN, "hook", event], { env: { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_TOKEN: "", ...env } })
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code: code ?? -1, stdout }))
    child.stdin.end(JSON.stringify(input))
  })

describe("hooks with MEMLEDGER_URL", () => {
  it("session-start injects the index of the server's store and leaves no store on this machine", async () => {
    const server = await startRestServer()
    onTestFinished(server.close)
    const home = tempDir()
    // The server runs in this busy test process: the hook is given longer than an agent's 1.8 s.
    const env = { MEMLEDGER_URL: server.url, HOME: home, MEMLEDGER_HOOK_TIME_LIMIT_MS: "20000" }
    const added = await memAsync(["add", "Deploy the web app with fly deploy --strategy bluegreen", "--global", "--json"], { cwd: home, env })
    expect(added.code, added.stderr).toBe(0)

    const result = await hookAsync("session-start", { session_id: "remote-1", cwd: home, source: "startup" }, env)
    expect(result.code).toBe(0)
    const context = JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string
    expect(context).toContain("fly deploy --strategy bluegreen")
    expect(context).toContain('"claude-code:session/remote-1"')
    expect(existsSync(join(home, ".memledger", "memledger.db"))).toBe(false)
  })

  it("a hook over its time limit prints nothing and exits 0", async () => {
    const server = await startRestServer()
    onTestFinished(server.close)
    const home = tempDir()
    const env = { MEMLEDGER_URL: server.url, HOME: home, MEMLEDGER_HOOK_TIME_LIMIT_MS: "1" }
    const result = await hookAsync("session-start", { session_id: "remote-2", cwd: home, source: "startup" }, env)
    expect(result).toEqual({ code: 0, stdout: "" })
  })
})
