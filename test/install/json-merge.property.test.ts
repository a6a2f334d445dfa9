/**
 * Protects the promise that install never clobbers a user's settings: for random settings files
 * (the user's own servers, hooks and unknown keys), every JSON file any agent's install edits
 * keeps all of it, a second install changes nothing, and uninstall gives the original back.
 * (An empty container that only ever held memledger's entry goes at uninstall, so the user's
 * containers here always hold something.)
 */
import { FastCheck as fc } from "effect"
import { Either } from "effect"
import { describe, expect, test } from "vitest"
import type { FileEdit } from "../../src/install/file-edit.js"
import type { InstallContext } from "../../src/install/target.js"
import { TARGETS } from "../../src/install/targets/index.js"

const context = (scope: "user" | "project"): InstallContext => ({
  scope,
  home: "/home/u",
  cwd: "/work/project",
  launcher: { node: "/usr/bin/node", script: "/opt/memledger/bin/mem.js", db: "/home/u/my store.db" },
  env: {}
})

const jsonEdits: ReadonlyArray<readonly [string, FileEdit]> = TARGETS.flatMap((target) =>
  target.scopes.flatMap((scope) =>
    target
      .edits(context(scope))
      .filter((edit) => edit.path.endsWith(".json"))
      .map((edit) => [`${target.name} ${scope} ${edit.path}`, edit] as const)
  )
)

const key = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => k !== "memledger")
const servers = fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 })
const handler = fc.record({ type: fc.constant("command"), command: fc.string({ maxLength: 30 }), timeout: fc.option(fc.nat(60), { nil: undefined }) }, { requiredKeys: ["type", "command"] })
const group = fc.record({ matcher: fc.string({ maxLength: 10 }), hooks: fc.array(handler, { maxLength: 3 }) }, { requiredKeys: ["hooks"] })
const hooks = fc.dictionary(fc.constantFrom("SessionStart", "Stop", "PreToolUse", "UserPromptSubmit", "Custom"), fc.array(group, { minLength: 1, maxLength: 3 }), { minKeys: 1 })
const settings = fc
  .tuple(
    fc.dictionary(key.filter((k) => !["mcpServers", "mcp", "hooks"].includes(k)), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
    fc.record({ mcpServers: servers, mcp: servers, hooks }, { requiredKeys: [] })
  )
  .map(([other, containers]) => ({ ...other, ...containers }))

describe.each(jsonEdits)("%s", (_name, edit) => {
  test("keeps random user settings through install, a second install and uninstall", () => {
    fc.assert(
      fc.property(settings, fc.constantFrom(0, 2, "\t"), (document, indent) => {
        const original = JSON.stringify(document, null, indent)
        const installed = Either.getOrThrow(edit.install(original))!
        const parsed = JSON.parse(installed)
        for (const [k, value] of Object.entries(JSON.parse(original))) {
          if (!["mcpServers", "mcp", "hooks"].includes(k)) expect(parsed[k]).toEqual(value)
        }
        expect(Either.getOrThrow(edit.install(installed))).toBe(installed)
        const uninstalled = Either.getOrThrow(edit.uninstall(installed))
        expect(JSON.parse(uninstalled ?? "{}")).toEqual(JSON.parse(original))
      }),
      { numRuns: 80 }
    )
  })
})
