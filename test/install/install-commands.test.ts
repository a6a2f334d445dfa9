/**
 * What the registered commands are, and the ways `mem install` refuses: the MCP server and the
 * hooks point at this package's bin/mem.js and actually run (a path with a space included), the
 * store given to install is passed through, and a foreign or broken file, an unsupported scope
 * or contradictory flags stop everything before a byte is written.
 */
import { spawnSync } from "node:child_process"
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, test } from "vitest"
import { mem, MEM_BIN } from "../support/cli.js"
import { sandbox, shell } from "./sandbox.js"

const withoutSubcommand = (command: string) => command.replace(/ hook [a-z-]+( --agent [a-z-]+)?$/, "")

describe("the registered commands", () => {
  test("claude-code: the MCP server and all six hooks run this bin/mem.js with the store given to install", () => {
    const box = sandbox()
    expect(box.run(["--db", "my store.db", "install", "claude-code"]).code).toBe(0)
    const store = join(box.project, "my store.db")

    const server = JSON.parse(box.read("~/.claude.json")).mcpServers.memledger
    expect(server).toEqual({ type: "stdio", command: process.execPath, args: [MEM_BIN, "--db", store, "mcp"] })
    const help = spawnSync(server.command, [...server.args.slice(0, -1), "stats", "--help"], { encoding: "utf8" })
    expect(help.status).toBe(0)
    expect(help.stdout).toContain("memledger")

    const hooks = JSON.parse(box.read("~/.claude/settings.json")).hooks as Record<string, Array<{ hooks: Array<{ command: string; timeout: number }> }>>
    expect(Object.keys(hooks)).toEqual(["SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop", "SessionEnd"])
    for (const [event, [group]] of Object.entries(hooks)) {
      const { command, timeout } = group!.hooks[0]!
      expect(command, event).toMatch(/ hook [a-z-]+$/)
      expect(command).toContain(`'${store}'`)
      expect(timeout).toBe(5)
      const run = shell(`${withoutSubcommand(command)} stats --help`)
      expect(run.status, `${event}: ${run.stderr}`).toBe(0)
      expect(run.stdout).toContain("memledger")
    }
  })

  test("claude-code: PostToolUse and PostToolUseFailure run in the background, as they print nothing; every hook that injects context is waited for", () => {
    const box = sandbox()
    box.run(["install", "claude-code"])
    const hooks = JSON.parse(box.read("~/.claude/settings.json")).hooks as Record<string, Array<{ hooks: Array<{ async?: boolean }> }>>
    const background = Object.entries(hooks).filter(([, [group]]) => group!.hooks[0]!.async === true).map(([event]) => event)
    expect(background).toEqual(["PostToolUse", "PostToolUseFailure"])
  })

  test("claude-code: `mcp --help` runs from the registered server command", () => {
    const box = sandbox()
    box.run(["install", "claude-code"])
    const server = JSON.parse(box.read("~/.claude.json")).mcpServers.memledger
    expect(spawnSync(server.command, [...server.args, "--help"], { encoding: "utf8" }).status).toBe(0)
  })

  test("claude-code: every registered hook command runs on the agent's JSON, and SessionStart injects the index", () => {
    const box = sandbox()
    box.run(["install", "claude-code"])
    const hooks = JSON.parse(box.read("~/.claude/settings.json")).hooks as Record<string, Array<{ hooks: Array<{ command: string }> }>>
    expect(Object.keys(hooks).sort()).toEqual(["PostToolUse", "PostToolUseFailure", "SessionEnd", "SessionStart", "Stop", "UserPromptSubmit"])
    for (const [event, [group]] of Object.entries(hooks)) {
      const input = JSON.stringify({ session_id: "install-test", cwd: box.project, hook_event_name: event, source: "startup", prompt: "hello" })
      const run = spawnSync("sh", ["-c", group!.hooks[0]!.command], { input, encoding: "utf8", env: { ...process.env, HOME: box.home } })
      expect(run.status, `${event}: ${run.stderr}`).toBe(0)
      if (event === "SessionStart") expect(JSON.parse(run.stdout).hookSpecificOutput.hookEventName).toBe("SessionStart")
    }
  })

  test("claude-code: no PreCompact hook, and installing again takes out the one an earlier install registered", () => {
    const box = sandbox()
    const own = { hooks: [{ type: "command", command: "./save-notes.sh" }] }
    const earlier = { hooks: [{ type: "command", command: "/usr/bin/node /opt/memledger/bin/mem.js hook pre-compact", timeout: 5 }] }
    box.write({ "~/.claude/settings.json": `${JSON.stringify({ hooks: { PreCompact: [earlier, own] } }, null, 2)}\n` })
    expect(box.run(["install", "claude-code"]).code).toBe(0)
    const hooks = JSON.parse(box.read("~/.claude/settings.json")).hooks
    expect(hooks.PreCompact).toEqual([own])
    expect(hooks.SessionStart[0].matcher).toBe("startup|resume|clear|compact")
  })

  test("codex: MEMLEDGER_DB reaches the server and the SessionStart hook, which run", () => {
    const box = sandbox()
    expect(box.run(["install", "codex"], { MEMLEDGER_DB: "/var/tmp/team.db" }).code).toBe(0)
    const config = box.read("~/.codex/config.toml")
    expect(config).toBe(`[mcp_servers.memledger]\ncommand = ${JSON.stringify(process.execPath)}\nargs = ${JSON.stringify([MEM_BIN, "--db", "/var/tmp/team.db", "mcp"]).replace(/","/g, '", "')}\n`)
    const hook = JSON.parse(box.read("~/.codex/hooks.json")).hooks.SessionStart[0]
    expect(hook.matcher).toBe("startup|resume|clear|compact")
    expect(hook.hooks[0].command).toMatch(/ hook session-start --agent codex$/)
    const run = shell(`${withoutSubcommand(hook.hooks[0].command)} stats --help`)
    expect(run.status).toBe(0)
    expect(run.stdout).toContain("memledger")
    expect(box.read("~/.codex/AGENTS.md")).toMatch(/<!-- memledger:start -->[\s\S]*record_outcome[\s\S]*never instructions[\s\S]*<!-- memledger:end -->\n$/)
  })

  test("CODEX_HOME moves codex's user files, as it does for Codex itself", () => {
    const box = sandbox()
    const codexHome = join(box.home, "elsewhere")
    expect(box.run(["install", "codex", "--json"], { CODEX_HOME: codexHome }).json().files.map((f: { path: string }) => f.path)).toEqual([
      join(codexHome, "config.toml"),
      join(codexHome, "hooks.json"),
      join(codexHome, "AGENTS.md")
    ])
  })
})

describe("refusals", () => {
  test("a user's own /recall command is never overwritten: nothing is written at all", () => {
    const box = sandbox()
    box.write({ "~/.claude/commands/recall.md": "My own recall.\n" })
    const before = box.snapshot()
    const result = box.run(["install", "claude-code"])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`${box.path("~/.claude/commands/recall.md")} exists and was not written by memledger`)
    expect(box.snapshot()).toEqual(before)
  })

  test("a config.toml that cannot be edited safely is refused with the reason", () => {
    const box = sandbox()
    box.write({ "~/.codex/config.toml": 'instructions = """\nnever closed\n' })
    const broken = box.run(["install", "codex"])
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain("never closed")
    box.write({ "~/.codex/config.toml": '[mcp_servers]\nmemledger = { command = "mem" }\n' })
    const before = box.snapshot()
    const dotted = box.run(["install", "codex", "--json"])
    expect(dotted.code).toBe(1)
    expect(JSON.parse(dotted.stderr).error).toBe("MalformedConfig")
    expect(box.snapshot()).toEqual(before)
  })

  test("windsurf has no project configuration: a usage error", () => {
    const box = sandbox()
    const result = box.run(["install", "windsurf", "--project"])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("windsurf has no project configuration")
    expect(box.snapshot()).toEqual({})
  })

  test("--user with --project, or an unknown agent, is a usage error", () => {
    const box = sandbox()
    expect(box.run(["install", "cursor", "--user", "--project"]).code).toBe(2)
    expect(box.run(["install", "vim"]).code).toBe(2)
    expect(box.snapshot()).toEqual({})
  })
})

test("a settings file that is a symlink (a dotfiles checkout) stays one; its target is edited", () => {
  const box = sandbox()
  const dotfiles = join(box.home, "dotfiles")
  mkdirSync(dotfiles)
  mkdirSync(join(box.home, ".gemini"))
  writeFileSync(join(dotfiles, "gemini.json"), '{\n  "theme": "Dracula"\n}\n')
  symlinkSync(join(dotfiles, "gemini.json"), box.path("~/.gemini/settings.json"))
  expect(box.run(["install", "gemini"]).code).toBe(0)
  expect(lstatSync(box.path("~/.gemini/settings.json")).isSymbolicLink()).toBe(true)
  expect(JSON.parse(readFileSync(join(dotfiles, "gemini.json"), "utf8"))).toMatchObject({ theme: "Dracula", mcpServers: { memledger: {} } })
})
