/**
 * `mem install` and `mem uninstall` as a real process, for every agent and scope, in a
 * temporary HOME and project folder: what they write, that a user's own settings survive, that
 * installing twice is installing once, that uninstall gives the original files back, that
 * --dry-run writes nothing and that a broken settings file stops everything.
 */
import { existsSync } from "node:fs"
import { describe, expect, test } from "vitest"
import { CASES, type InstallCase } from "./cases.js"
import { sandbox } from "./sandbox.js"

const argsOf =
  (c: InstallCase) =>
  (command: "install" | "uninstall", ...more: string[]) => [command, c.target, ...(c.scope === "project" ? ["--project"] : []), ...more]

describe.each(CASES)("$target ($scope scope)", (c) => {
  const args = argsOf(c)

  test("installs into an empty home and project, creating every file", () => {
    const box = sandbox()
    const result = box.run(args("install", "--json"))
    expect(result.stderr).toBe("")
    expect(result.code).toBe(0)
    expect(result.json()).toEqual({ target: c.target, scope: c.scope, dryRun: false, files: c.files.map((f) => ({ path: box.path(f), action: "created" })) })
    for (const file of c.files) expect(existsSync(box.path(file))).toBe(true)
    const argv = c.mcp.argv(box.read(c.mcp.file))
    expect(argv.at(-1)).toBe("mcp")
    // User scope: this node and this bin/mem.js; project scope: `mem` on the PATH (project-scope.test.ts).
    if (c.scope === "user") expect(existsSync(argv[1]!)).toBe(true)
    else expect(argv).toEqual(["mem", "mcp"])
  })

  test("keeps the user's files, installs once however often it runs, and uninstall gives them back byte for byte", () => {
    const box = sandbox()
    box.write(c.existing)
    const original = box.snapshot()

    const first = box.run(args("install"))
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(`installed memledger for ${c.target} (${c.scope} scope)`)
    const installed = box.snapshot()
    for (const [file, content] of Object.entries(original)) {
      if (!c.files.includes(file)) expect(installed[file], file).toBe(content)
      else if (file.endsWith(".json")) expectKept(JSON.parse(content), JSON.parse(installed[file]!))
      else expect(installed[file]!.startsWith(content), file).toBe(true)
    }

    const second = box.run(args("install", "--json"))
    expect(second.json().files.map((f: { action: string }) => f.action)).toEqual(c.files.map(() => "unchanged"))
    expect(box.snapshot()).toEqual(installed)
    expect(box.run(args("install")).stdout).toMatch("already installed")

    const removed = box.run(args("uninstall", "--json"))
    expect(removed.code).toBe(0)
    expect(box.snapshot()).toEqual(original)
    expect(removed.json().files.map((f: { action: string }) => f.action)).toEqual(c.files.map((f) => (f in c.existing ? "updated" : "removed")))
    expect(box.run(args("uninstall")).stdout).toMatch("not installed")
  })

})

// Scopes share the code below, so once per agent keeps the suite fast on two cores.
describe.each(CASES.filter((c) => c.scope === "user"))("$target", (c) => {
  const args = argsOf(c)

  test("--dry-run prints the change and writes nothing", () => {
    const box = sandbox()
    box.write(c.existing)
    const before = box.snapshot()
    const dry = box.run(args("install", "--dry-run"))
    expect(dry.code).toBe(0)
    expect(dry.stdout).toMatch("nothing was written")
    expect(dry.stdout).toMatch(/^\+.*mem\.js/m)
    expect(box.snapshot()).toEqual(before)

    box.run(args("install"))
    const installed = box.snapshot()
    const dryUninstall = box.run(args("uninstall", "--dry-run", "--json"))
    expect(dryUninstall.json()).toMatchObject({ target: c.target, scope: c.scope, dryRun: true })
    expect(box.snapshot()).toEqual(installed)
  })

  test("a malformed settings file stops the install with a clear error, and nothing is written", () => {
    const box = sandbox()
    const jsonFile = c.files.find((f) => f.endsWith(".json"))!
    box.write({ ...c.existing, [jsonFile]: '{"mcpServers": {"a": 1},,}' })
    const before = box.snapshot()
    const result = box.run(args("install", "--json"))
    expect(result.code).toBe(1)
    expect(result.stdout).toBe("")
    const error = JSON.parse(result.stderr)
    expect(error.error).toBe("MalformedConfig")
    expect(error.message).toContain(box.path(jsonFile))
    expect(error.message).toContain("not valid JSON")
    expect(box.snapshot()).toEqual(before)
    expect(box.run(args("uninstall")).code).toBe(1)
    expect(box.snapshot()).toEqual(before)
  })
})

/** Every setting of the user's is still there: keys and servers as they were, hook groups among memledger's. */
const expectKept = (user: Record<string, unknown>, installed: Record<string, unknown>) => {
  const { hooks, ...rest } = user
  expect(installed).toMatchObject(rest)
  for (const [event, groups] of Object.entries((hooks ?? {}) as Record<string, unknown[]>)) {
    expect((installed.hooks as Record<string, unknown[]>)[event]).toEqual(expect.arrayContaining(groups))
  }
}
