/**
 * Protects how agents start memledger: the hook command line reaches the shell as exactly the
 * intended words (paths with spaces and quotes included), and memledger's hooks are told apart
 * from everyone else's, which is what lets uninstall remove exactly what install added.
 */
import { spawnSync } from "node:child_process"
import { describe, expect, test } from "vitest"
import { hookCommand, isMemledgerHook, mcpServerArgv } from "../../src/install/launcher.js"
import { shellCommand } from "../../src/install/shell.js"

const launcher = { node: "/opt/node 20/bin/node", script: "/home/o'brien/memledger/bin/mem.js", db: "/home/o'brien/my store.db" }

/** The words a POSIX shell reads from a command line. */
const wordsOf = (commandLine: string): ReadonlyArray<string> =>
  spawnSync("sh", ["-c", `for word in ${commandLine}; do printf '%s\\n' "$word"; done`], { encoding: "utf8" }).stdout.split("\n").slice(0, -1)

describe("hookCommand", () => {
  test("quotes paths so the shell reads back exactly node, the script, --db and the event", () => {
    expect(wordsOf(hookCommand(launcher, "session-start"))).toEqual([launcher.node, launcher.script, "--db", launcher.db, "hook", "session-start"])
  })

  test("names the agent when it is not claude-code", () => {
    expect(wordsOf(hookCommand(launcher, "session-start", "codex")).slice(-4)).toEqual(["hook", "session-start", "--agent", "codex"])
  })

  test("leaves plain paths unquoted", () => {
    expect(hookCommand({ node: "/usr/bin/node", script: "/opt/m/bin/mem.js" }, "stop")).toBe("/usr/bin/node /opt/m/bin/mem.js hook stop")
  })

  test("the MCP server argv is the same words, unquoted", () => {
    expect(mcpServerArgv(launcher)).toEqual([launcher.node, launcher.script, "--db", launcher.db, "mcp"])
  })

  test("quotes odd characters too", () => {
    const odd = ["a b", "it's", '"x"', "$HOME", "`id`", "*", ""]
    expect(wordsOf(shellCommand(odd))).toEqual(odd)
  })
})

describe("isMemledgerHook", () => {
  test("recognises every command memledger writes, and a plain `mem hook`", () => {
    expect(isMemledgerHook(hookCommand(launcher, "session-start"))).toBe(true)
    expect(isMemledgerHook(hookCommand(launcher, "session-start", "codex"))).toBe(true)
    expect(isMemledgerHook(hookCommand({ node: "/usr/bin/node", script: "/x/bin/mem.js" }, "post-tool-use"))).toBe(true)
    expect(isMemledgerHook("mem hook stop")).toBe(true)
    expect(isMemledgerHook("mem --db=/tmp/m.db hook pre-compact")).toBe(true)
  })

  test("leaves other people's hooks alone", () => {
    for (const command of ["echo hook stop", "memo hook stop", "mem hooks stop", "mem hook unknown-event", "./guard.sh", "python3 hook.py session-start", "mem search hook stop"]) {
      expect(isMemledgerHook(command)).toBe(false)
    }
  })
})
