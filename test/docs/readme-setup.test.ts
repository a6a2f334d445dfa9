/**
 * The README's set-up is two commands, said first: one that installs everything, leaves `mem`
 * on the PATH and runs it; one that runs the tests. The first runs here for real (into a
 * temporary npm prefix, so this machine's global folder is left alone), and the `mem` it
 * leaves must run this clone's build from any folder.
 */
import { spawnSync } from "node:child_process"
import { readFileSync, realpathSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { MEM_BIN, tempDir } from "../support/cli.js"

/** The shell blocks of the README's first section, which must be its set-up. */
const setUp = (): string[] => {
  const readme = readFileSync("README.md", "utf8")
  const first = /^## (.+)$/m.exec(readme)
  expect(first?.[1]).toBe("Set up")
  const end = readme.indexOf("\n## ", first!.index + 1)
  return [...readme.slice(first!.index, end).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim())
}

it("says first how to set up, in two commands: install and run mem, and run the tests", () => {
  expect(setUp()).toEqual([expect.stringMatching(/^npm ci && .+ && mem --help$/), "npm test"])
})

it("its first command leaves a mem on the PATH that runs this clone's build from any folder", () => {
  // npm ci has run already in this clone: its node_modules is the one the suite runs on.
  const install = setUp()[0]!.replace(/^npm ci && /, "")
  const prefix = tempDir("memledger-prefix-")
  const elsewhere = tempDir()
  const env = { ...process.env, npm_config_prefix: prefix, PATH: `${join(prefix, "bin")}:${process.env.PATH}`, MEMLEDGER_DB: join(elsewhere, "m.db") }
  const installed = spawnSync("bash", ["-c", install], { env, encoding: "utf8" })
  expect(installed.status, installed.stderr).toBe(0)
  expect(installed.stdout).toMatch(/^\$ mem /m)
  expect(realpathSync(join(prefix, "bin", "mem"))).toBe(realpathSync(MEM_BIN))
  const added = spawnSync("mem", ["add", "--json", "run the tests with npm test"], { cwd: elsewhere, env, encoding: "utf8" })
  expect(added.status, added.stderr).toBe(0)
  const run = spawnSync("mem", ["stats", "--json"], { cwd: elsewhere, env, encoding: "utf8" })
  expect(run.status, run.stderr).toBe(0)
  expect(JSON.parse(run.stdout)).toMatchObject({ events: 1, memories: { live: 1 }, path: join(elsewhere, "m.db") })
}, 300_000)
