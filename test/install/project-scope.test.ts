/**
 * Project-scope files are committed and shared by a team, so they name `mem` as found on the
 * PATH (the README installs it there) and no path of this machine; the install says so; and
 * the commands they register run wherever `mem` is on the PATH. User scope keeps this node
 * and this package's bin/mem.js by absolute path (install-commands.test.ts).
 */
import { mkdirSync, symlinkSync } from "node:fs"
import { join } from "node:path"
import { spawnSync } from "node:child_process"
import { describe, expect, test } from "vitest"
import { MEM_BIN, tempDir } from "../support/cli.js"
import { CASES } from "./cases.js"
import { sandbox } from "./sandbox.js"

/** A PATH on which `mem` is this package's bin/mem.js, as `npm install -g` makes it. */
const pathWithMem = (): string => {
  const bin = join(tempDir("memledger-bin-"), "bin")
  mkdirSync(bin)
  symlinkSync(MEM_BIN, join(bin, "mem"))
  return `${bin}:${process.env.PATH}`
}

describe.each(CASES.filter((c) => c.scope === "project"))("$target --project", (c) => {
  test("writes `mem` and no path of this machine, and says that the files run mem from the PATH", () => {
    const box = sandbox()
    const result = box.run(["install", c.target, "--project"])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toMatch(/run `mem` from the PATH/)
    for (const file of c.files) {
      const text = box.read(file)
      expect(text, file).not.toContain(MEM_BIN)
      expect(text, file).not.toContain(process.execPath)
    }
    expect(c.mcp.argv(box.read(c.mcp.file))).toEqual(["mem", "mcp"])
  })
})

describe("the commands a project registers", () => {
  test("claude-code: every hook is `mem hook EVENT`, and runs with mem on the PATH", () => {
    const box = sandbox()
    expect(box.run(["install", "claude-code", "--project"]).code).toBe(0)
    const hooks = JSON.parse(box.read("./.claude/settings.json")).hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>
    const PATH = pathWithMem()
    for (const [event, [group]] of Object.entries(hooks)) {
      const command = group!.hooks[0]!.command
      expect(command, event).toMatch(/^mem hook [a-z-]+$/)
      const input = JSON.stringify({ session_id: "project-test", cwd: box.project, hook_event_name: event, source: "startup", prompt: "hello" })
      const run = spawnSync("sh", ["-c", command], { input, encoding: "utf8", cwd: box.project, env: { ...process.env, HOME: box.home, MEMLEDGER_DB: "", PATH } })
      expect(run.status, `${event}: ${run.stderr}`).toBe(0)
      if (event === "SessionStart") expect(JSON.parse(run.stdout).hookSpecificOutput.hookEventName).toBe("SessionStart")
    }
  })

  test("codex: the SessionStart hook is `mem hook session-start --agent codex`", () => {
    const box = sandbox()
    expect(box.run(["install", "codex", "--project"]).code).toBe(0)
    expect(JSON.parse(box.read("./.codex/hooks.json")).hooks.SessionStart[0].hooks[0].command).toBe("mem hook session-start --agent codex")
  })

  test("a --db given to a project install is passed on; MEMLEDGER_DB, a setting of this machine, is not written", () => {
    const box = sandbox()
    expect(box.run(["install", "cursor", "--project"], { MEMLEDGER_DB: "/home/me/private.db" }).code).toBe(0)
    expect(box.read("./.cursor/mcp.json")).not.toContain("private.db")
    expect(box.run(["--db", "team.db", "install", "gemini", "--project"]).code).toBe(0)
    expect(JSON.parse(box.read("./.gemini/settings.json")).mcpServers.memledger).toEqual({ command: "mem", args: ["--db", join(box.project, "team.db"), "mcp"] })
  })
})
