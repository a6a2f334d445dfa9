/**
 * Protects the JSON merges every agent's install goes through: memledger's entries go in beside
 * the user's own, a second install changes nothing, and uninstall gives back what was there.
 */
import { Either } from "effect"
import { describe, expect, test } from "vitest"
import { withHooks, withoutHooks, type HookSpec } from "../../src/install/hook-entries.js"
import { jsonEdit, type JsonChange, type JsonObject } from "../../src/install/json-document.js"
import { withEntry, withoutEntry } from "../../src/install/json-entries.js"
import { isMemledgerHook } from "../../src/install/launcher.js"

const ours = (event: string) => `/usr/bin/node /opt/mem/bin/mem.js hook ${event}`
const SPECS: ReadonlyArray<HookSpec> = [
  { event: "SessionStart", matcher: "startup|resume|clear|compact", command: ours("session-start"), timeout: 5 },
  { event: "Stop", command: ours("stop"), timeout: 5 }
]
const apply = (change: JsonChange, document: JsonObject) => Either.getOrThrow(change(document))

describe("withEntry / withoutEntry", () => {
  const server = { command: "/usr/bin/node", args: ["/opt/mem/bin/mem.js", "mcp"] }

  test("adds the entry last among the user's servers and keeps theirs in place", () => {
    const user = { theme: "dark", mcpServers: { github: { command: "gh-mcp" } }, zed: 1 }
    const installed = apply(withEntry(["mcpServers"], "memledger", server), user)
    expect(installed).toEqual({ theme: "dark", mcpServers: { github: { command: "gh-mcp" }, memledger: server }, zed: 1 })
    expect(Object.keys(installed)).toEqual(["theme", "mcpServers", "zed"])
    expect(apply(withoutEntry(["mcpServers"], "memledger"), installed)).toEqual(user)
  })

  test("creates missing containers, and uninstall removes the ones it emptied", () => {
    const installed = apply(withEntry(["mcp"], "memledger", server), { model: "x" })
    expect(installed).toEqual({ model: "x", mcp: { memledger: server } })
    expect(apply(withoutEntry(["mcp"], "memledger"), installed)).toEqual({ model: "x" })
  })

  test("keeps keys the user added to memledger's entry when installing again", () => {
    const edited = { mcpServers: { memledger: { command: "/old/node", args: [], env: { A: "1" } } } }
    expect(apply(withEntry(["mcpServers"], "memledger", server), edited)).toEqual({ mcpServers: { memledger: { ...server, env: { A: "1" } } } })
  })

  test("refuses a container that is not an object", () => {
    expect(withEntry(["mcpServers"], "memledger", server)({ mcpServers: [] })).toEqual(Either.left('"mcpServers" is not an object'))
  })
})

describe("withHooks / withoutHooks", () => {
  const userHooks = {
    SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo hello" }] }],
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }]
  }

  test("adds a group per event after the user's groups and leaves theirs untouched", () => {
    const installed = apply(withHooks(SPECS, isMemledgerHook), { hooks: userHooks })
    expect(installed).toEqual({
      hooks: {
        SessionStart: [userHooks.SessionStart[0], { matcher: "startup|resume|clear|compact", hooks: [{ type: "command", command: ours("session-start"), timeout: 5 }] }],
        PreToolUse: userHooks.PreToolUse,
        Stop: [{ hooks: [{ type: "command", command: ours("stop"), timeout: 5 }] }]
      }
    })
  })

  test("a second install changes nothing, even after the user added groups behind ours", () => {
    const installed = apply(withHooks(SPECS, isMemledgerHook), { hooks: userHooks })
    const later = { hooks: { ...(installed.hooks as JsonObject), Stop: [...((installed.hooks as JsonObject).Stop as []), { hooks: [{ type: "command", command: "say done" }] }] } }
    expect(apply(withHooks(SPECS, isMemledgerHook), later)).toEqual(later)
  })

  test("replaces an older memledger hook (another node, another path) instead of adding a second", () => {
    const old = { hooks: { Stop: [{ hooks: [{ type: "command", command: "'/old node/bin/node' '/old/bin/mem.js' --db /x.db hook stop", timeout: 9 }] }] } }
    const installed = apply(withHooks(SPECS, isMemledgerHook), old)
    expect((installed.hooks as JsonObject).Stop).toEqual([{ hooks: [{ type: "command", command: ours("stop"), timeout: 5 }] }])
  })

  test("takes a memledger handler out of a group the user shares with it, keeping the user's handler", () => {
    const shared = { hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }, { type: "command", command: ours("stop") }] }] } }
    expect(apply(withoutHooks(isMemledgerHook), shared)).toEqual({ hooks: { Stop: [{ hooks: [{ type: "command", command: "say done" }] }] } })
  })

  test("uninstall gives back the user's hooks, and drops the hooks key it emptied", () => {
    expect(apply(withoutHooks(isMemledgerHook), apply(withHooks(SPECS, isMemledgerHook), { hooks: userHooks }))).toEqual({ hooks: userHooks })
    expect(apply(withoutHooks(isMemledgerHook), apply(withHooks(SPECS, isMemledgerHook), { model: "x" }))).toEqual({ model: "x" })
  })

  test("refuses hooks that are not an object, or an event that is not a list", () => {
    expect(withHooks(SPECS, isMemledgerHook)({ hooks: "none" })).toEqual(Either.left('"hooks" is not an object'))
    expect(withHooks(SPECS, isMemledgerHook)({ hooks: { Stop: {} } })).toEqual(Either.left('"hooks.Stop" is not a list'))
  })
})

describe("jsonEdit", () => {
  const edit = jsonEdit("/x/settings.json", { install: withEntry(["mcpServers"], "memledger", { command: "n" }), uninstall: withoutEntry(["mcpServers"], "memledger") })

  test("writes in the file's own indent, line endings and final newline", () => {
    const tabs = '{\r\n\t"a": 1\r\n}'
    expect(Either.getOrThrow(edit.install(tabs))).toBe('{\r\n\t"a": 1,\r\n\t"mcpServers": {\r\n\t\t"memledger": {\r\n\t\t\t"command": "n"\r\n\t\t}\r\n\t}\r\n}')
    expect(Either.getOrThrow(edit.install('{"a":1}\n'))).toBe('{"a":1,"mcpServers":{"memledger":{"command":"n"}}}\n')
  })

  test("returns the very same text when nothing changes, and removes a file it would leave as {}", () => {
    const installed = Either.getOrThrow(edit.install(null))!
    expect(installed).toBe('{\n  "mcpServers": {\n    "memledger": {\n      "command": "n"\n    }\n  }\n}\n')
    expect(Either.getOrThrow(edit.install(installed))).toBe(installed)
    expect(Either.getOrThrow(edit.uninstall(installed))).toBeNull()
    expect(Either.getOrThrow(edit.uninstall(null))).toBeNull()
  })

  test("refuses text that is not a JSON object, saying which file and why", () => {
    const broken = edit.install('{"a": 1,}')
    expect(Either.isLeft(broken) && broken.left.message).toMatch(/^\/x\/settings\.json: not valid JSON \(.+\); fix or move it/)
    const array = edit.uninstall("[1]")
    expect(Either.isLeft(array) && array.left.message).toMatch(/the file holds JSON, but not an object/)
  })
})
