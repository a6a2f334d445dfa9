/**
 * docs/backups.md's example is code: this runs its shell block with `set -e` against a store
 * with a memory in it, so a command it shows that stops working fails the suite.
 */
import { spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { MEM_BIN, mem, tempDir } from "../support/cli.js"

const example = (): string => {
  const block = /<!-- backups:start -->\s*```sh\n([\s\S]*?)```\s*<!-- backups:end -->/.exec(readFileSync("docs/backups.md", "utf8"))?.[1]
  if (block === undefined) throw new Error("docs/backups.md has no example block")
  return block
}

it("runs docs/backups.md's example as written", () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  expect(mem(["--db", db, "add", "the build uses Node 20", "--global"]).code).toBe(0)
  const script = `set -euo pipefail\nmem() { node ${JSON.stringify(MEM_BIN)} "$@"; }\n${example()}`
  const result = spawnSync("bash", ["-c", script], { cwd: dir, encoding: "utf8", env: { ...process.env, MEMLEDGER_DB: db } })
  expect(result.stderr).toBe("")
  expect(result.status).toBe(0)
  expect(result.stdout).toMatch(/^backed up 1 event to .*\/copies\/m-\d{8}T\d{6}Z\.db \(verified\)$/m)
  expect(result.stdout).toMatch(/"events":1,"kept":\["m-\d{8}T\d{6}Z\.db"/)
  expect(result.stdout).toMatch(/^restored .* \(1 event, verified\) to .*\/m\.db\nthe store as it was is now .*\/m\.db\.before-restore-\d{8}T\d{6}Z$/m)
  expect(result.stdout).toMatch(/^ok: 1 event/m)
  expect(readdirSync(dir).filter((name) => name.startsWith("m.db.before-restore-"))).toHaveLength(1)
})
