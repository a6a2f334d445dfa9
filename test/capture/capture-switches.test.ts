/**
 * Turning capture off, or down to rules, for the whole store and for one project: the hooks and
 * imports then keep nothing (or only rules) there, `mem doctor` says what is on, and a setting
 * file that does not read keeps capture off rather than on.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { captureSettingsFile } from "../../src/capture/capture-settings.js"
import { expect, it } from "vitest"
import { createStore, mem, memAt, tempDir } from "../support/cli.js"

const RULE = "From now on, never push to main, open a PR instead."

const setup = () => {
  const dir = tempDir()
  const db = createStore(join(dir, "m.db"))
  const run = memAt(db)
  const hook = (event: string, input: Record<string, unknown>) => mem(["--db", db, "hook", event], { input: JSON.stringify({ session_id: "s-switch", ...input }) })
  const lessonIn = (cwd: string) => {
    hook("post-tool-use-failure", { cwd, tool_name: "Bash", tool_input: { command: "git push" }, tool_use_id: "t1", error: "fatal: no upstream branch" })
    hook("post-tool-use", { cwd, tool_name: "Bash", tool_input: { command: "git push -u origin main" }, tool_use_id: "t2", tool_response: { stdout: "" } })
    hook("stop", { cwd })
  }
  const kept = () => (run("list", "--all", "--json").json() as Array<{ category: string }>).map((m) => m.category).sort()
  return { dir, db, run, hook, lessonIn, kept }
}

it("keeps everything by default, and says so", () => {
  const { run, dir, hook, lessonIn, kept } = setup()
  expect(run("capture").stdout).toContain("capture: on (rules and lessons) for this store")
  hook("user-prompt-submit", { cwd: dir, prompt: RULE })
  lessonIn(dir)
  expect(kept()).toEqual(["convention", "troubleshooting"])
})

it("off keeps nothing, rules keeps only rules, and doctor says which", () => {
  const { run, dir, hook, lessonIn, kept } = setup()
  expect(run("capture", "off").code).toBe(0)
  hook("user-prompt-submit", { cwd: dir, prompt: RULE })
  lessonIn(dir)
  expect(kept()).toEqual([])
  expect(run("doctor").stdout).toContain("capture: off for this store")

  expect(run("capture", "rules").code).toBe(0)
  hook("user-prompt-submit", { cwd: dir, prompt: RULE })
  lessonIn(dir)
  expect(kept()).toEqual(["convention"])
  expect(run("doctor", "--json").json().capture).toMatch(/^rules only for this store/)
})

it("a project's own setting wins over the store's", () => {
  const { run, dir, hook, kept } = setup()
  const quiet = realpathSync(tempDir())
  expect(run("capture", "off", "--project", quiet).code).toBe(0)
  expect(run("capture", "--json").json()).toEqual({ store: "on", projects: { [quiet]: "off" } })
  hook("user-prompt-submit", { cwd: quiet, prompt: RULE })
  expect(kept()).toEqual([])
  hook("user-prompt-submit", { cwd: dir, prompt: RULE })
  expect(kept()).toEqual(["convention"])
  expect(run("doctor").stdout).toContain(`capture: on (rules and lessons) for this store; ${quiet}: off`)
})

it("a setting file that does not read keeps capture off, and doctor names it", () => {
  const { run, dir, db, hook, kept } = setup()
  mkdirSync(dirname(captureSettingsFile(db)), { recursive: true })
  writeFileSync(captureSettingsFile(db), "{ not json")
  hook("user-prompt-submit", { cwd: dir, prompt: RULE })
  expect(kept()).toEqual([])
  const doctor = run("doctor")
  expect(doctor.code).toBe(1)
  expect(doctor.stdout).toMatch(/FAIL {2}capture setting: .*capture\.json is not JSON/)
})

it("lives in the store's state folder, one per store, and a setting kept beside the store file is taken over once", () => {
  const { run, dir, db } = setup()
  expect(run("capture", "rules").code).toBe(0)
  expect(existsSync(join(dir, "capture.json"))).toBe(false)
  expect(JSON.parse(readFileSync(captureSettingsFile(db), "utf8")).store).toBe("rules")
  // Another store in the same folder has its own setting.
  const other = createStore(join(dir, "other.db"))
  expect(memAt(other)("capture").stdout).toContain("on (rules and lessons) for this store")
  // A setting an older memledger wrote beside a store file is read, and moved in.
  const older = join(tempDir(), "old.db")
  createStore(older)
  writeFileSync(join(dirname(older), "capture.json"), JSON.stringify({ store: "off", projects: {} }))
  expect(memAt(older)("capture").stdout).toContain("capture: off")
  expect(existsSync(join(dirname(older), "capture.json"))).toBe(false)
})
