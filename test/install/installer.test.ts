/**
 * Protects the writing side: a file an agent rewrote after it was planned is never overwritten
 * (and then nothing is written), and removing a file takes the folders it empties, never a root.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Exit } from "effect"
import { expect, test } from "vitest"
import { applyPlan, type InstallPlan } from "../../src/install/installer.js"
import { tempDir } from "../support/cli.js"

const plan = (files: InstallPlan["files"]): InstallPlan => ({ target: "cursor", scope: "user", direction: "install", files })

test("a file that changed since it was planned stops the whole write", () => {
  const home = tempDir()
  const first = join(home, "first.json")
  const second = join(home, "second.json")
  writeFileSync(second, "rewritten by the agent")
  const exit = Effect.runSyncExit(
    applyPlan(
      plan([
        { path: first, action: "created", before: null, after: "{}" },
        { path: second, action: "updated", before: "as planned", after: "ours" }
      ]),
      [home]
    )
  )
  expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("changed while memledger was planning")
  expect(existsSync(first)).toBe(false)
  expect(readFileSync(second, "utf8")).toBe("rewritten by the agent")
})

test("removing a file removes the folders it leaves empty, up to the root and no further", () => {
  const home = tempDir()
  const skill = join(home, ".claude", "skills", "memledger", "SKILL.md")
  mkdirSync(join(home, ".claude", "skills", "memledger"), { recursive: true })
  writeFileSync(skill, "x")
  writeFileSync(join(home, ".claude", "settings.json"), "{}")
  Effect.runSync(applyPlan(plan([{ path: skill, action: "removed", before: "x", after: null }]), [home]))
  expect(existsSync(join(home, ".claude", "skills"))).toBe(false)
  expect(existsSync(join(home, ".claude", "settings.json"))).toBe(true)

  const bare = tempDir()
  writeFileSync(join(bare, "opencode.json"), "{}")
  Effect.runSync(applyPlan(plan([{ path: join(bare, "opencode.json"), action: "removed", before: "{}", after: null }]), [bare]))
  expect(existsSync(bare)).toBe(true)
})
