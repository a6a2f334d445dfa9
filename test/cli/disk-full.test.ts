/**
 * A full disk is said in words, with nothing written: every command that writes (add, outcome,
 * import in both its paths, rebuild, purge, export) and an agent's MCP call answer "the disk is
 * full: nothing was written", exit 1, with no stack trace; export leaves no file behind; and
 * once space is freed the store holds what it held and verifies.
 *
 * The disk is a small tmpfs mounted for the test (CI runs as root); where mounting is not
 * allowed the test is skipped. An agent's `mem mcp` keeps the store open while the disk fills,
 * as one would, then a last case has no process holding it.
 */
import { execFileSync } from "node:child_process"
import { closeSync, existsSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from "node:fs"
import { join } from "node:path"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { memAt, tempDir } from "../support/cli.js"
import { connectStdio, textOf, type StdioClient } from "../mcp/support.js"

const mountPoint = tempDir("memledger-full-")
const mounted = (() => {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

/** Writes zeros to a new file in `dir` until the disk takes not one more byte. */
const fillDisk = (dir: string): void => {
  const fd = openSync(join(dir, `filler-${readdirSync(dir).length}`), "w")
  try {
    for (const size of [1 << 16, 4096, 1]) {
      const chunk = Buffer.alloc(size)
      try {
        for (;;) writeSync(fd, chunk)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error
      }
    }
  } finally {
    closeSync(fd)
  }
}

const FULL = /^the disk is full: nothing was written/
const NO_TRACE = /SqliteError|ENOSPC|InternalError|\n\s+at /

describe.skipIf(!mounted)("a full disk", () => {
  const db = join(mountPoint, "m.db")
  const run = memAt(db)
  let first = ""
  let agent: StdioClient | undefined

  beforeAll(async () => {
    first = run("add", "the first memory", "--global", "--json").json().id
    run("add", "a memory of another conversation", "--global", "--origin", "claude-code:session/2")
    run("forget-conversation", "claude-code:session/2")
    agent = await connectStdio(db)
    fillDisk(mountPoint)
  })

  afterAll(async () => {
    await agent?.close()
    if (mounted) execFileSync("umount", ["-l", mountPoint])
  })

  const lines = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ content: `an imported note, number ${i}` })).join("\n") + "\n"
  const small = join(tempDir(), "small.jsonl")
  const large = join(tempDir(), "large.jsonl")
  writeFileSync(small, lines(3))
  writeFileSync(large, lines(1_500))

  it.each([
    ["add", () => run("add", "a memory that does not fit", "--global", "--json")],
    ["outcome", () => run("outcome", first, "worked", "--json")],
    ["import", () => run("import", small, "--json")],
    ["import of a large file, in bulk", () => run("import", large, "--json")],
    ["rebuild", () => run("rebuild", "--json")],
    ["purge", () => run("purge", "--yes", "--json")]
  ])("%s says so in words, with exit 1 and no stack trace", (_, command) => {
    const result = command()
    expect(result.code).toBe(1)
    expect(result.stderr).not.toMatch(NO_TRACE)
    const error = JSON.parse(result.stderr)
    expect(error.error).toBe("DiskFull")
    expect(error.message).toMatch(FULL)
  })

  it("export says so, and leaves no file behind", () => {
    const out = join(mountPoint, "log.jsonl")
    const result = run("export", out)
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/^mem: the disk is full: nothing was written/)
    expect(result.stderr).not.toMatch(NO_TRACE)
    expect(existsSync(out)).toBe(false)
    expect(readdirSync(mountPoint).filter((name) => name.includes("log.jsonl"))).toEqual([])
  })

  it("an agent's MCP call says so in words", async () => {
    const result = (await agent!.client.callTool({ name: "remember", arguments: { content: "an agent's memory that does not fit", scope: "global" } })) as CallToolResult
    expect(result.isError).toBe(true)
    expect(textOf(result)).toMatch(/the disk is full: nothing was written/)
  })

  it("with no process holding the store open, opening it says so", async () => {
    await agent!.close()
    agent = undefined
    // Closing the last connection removed its -wal and -shm, which freed a little space.
    fillDisk(mountPoint)
    const result = run("add", "a memory that does not fit", "--global", "--json")
    expect(result.code).toBe(1)
    expect(result.stderr).not.toMatch(NO_TRACE)
    expect(JSON.parse(result.stderr).message).toMatch(FULL)
  })

  it("once space is freed, the store holds what it held and verifies", () => {
    for (const name of readdirSync(mountPoint).filter((n) => n.startsWith("filler-"))) rmSync(join(mountPoint, name))
    expect(run("verify", "--json").json()).toMatchObject({ ok: true, events: 3 })
  })
})
