/**
 * The README's tour is code: this runs its shell block, line by line with `set -e`, against a
 * fresh store, so a command the README shows that stops working fails the suite.
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { MEM_BIN, tempDir } from "../support/cli.js"

const tour = (): string => {
  const readme = readFileSync("README.md", "utf8")
  const block = /<!-- tour:start -->\s*```sh\n([\s\S]*?)```\s*<!-- tour:end -->/.exec(readme)?.[1]
  if (block === undefined) throw new Error("README.md has no tour block")
  return block
}

// About forty `mem` processes one after another: more than the default minute on a busy machine.
it("runs every command of the README tour successfully", { timeout: 180_000 }, () => {
  const dir = tempDir()
  const script = `set -euo pipefail\nmem() { node ${JSON.stringify(MEM_BIN)} "$@"; }\n${tour()}`
  const result = spawnSync("bash", ["-c", script], {
    cwd: dir,
    encoding: "utf8",
    env: { ...process.env, MEMLEDGER_DB: join(dir, "tour.db") }
  })
  expect(result.stderr).toBe("")
  expect(result.status).toBe(0)
  expect(result.stdout).toContain('"stored":false,"confirmed":true')
  expect(result.stdout).toMatch(/"imported":2/)
  expect(result.stdout).toContain('answers 100% via written cue "how do I ship to production?"')
  expect(result.stdout).toMatch(/\nlearned {2}"what is the rollout procedure"\n {9}weight 1\.00 now, in github\.com\/acme\/app; .* from conversation claude-code:session\/abc, outcome event /)
  expect(result.stdout).toContain('dropped the learned cue "what is the rollout procedure"')
})
