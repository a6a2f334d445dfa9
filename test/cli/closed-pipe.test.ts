/** A reader that closes the pipe early (`mem log | head`) ends the output quietly: exit 0, no stack trace. */
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { MEM_BIN, memAt, tempDir } from "../support/cli.js"

it("stops quietly when the reader closes the pipe", () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const lines = Array.from({ length: 3_000 }, (_, i) => JSON.stringify({ content: `Memory number ${i} about the build cache and its keys`, project: null }))
  writeFileSync(join(dir, "m.jsonl"), lines.join("\n"))
  expect(memAt(db)("import", join(dir, "m.jsonl"), "--json").code).toBe(0)

  // Far more output than a pipe holds; `head` reads a line and goes away, as a user's would.
  const run = spawnSync("bash", ["-c", `"$NODE" "$MEM" --db "$DB" log --json | head -c 10 > /dev/null; echo "status=\${PIPESTATUS[0]}"`], {
    encoding: "utf8",
    env: { ...process.env, NODE: process.execPath, MEM: MEM_BIN, DB: db, MEMLEDGER_DB: "" }
  })
  expect(run.stderr).not.toMatch(/EPIPE|Error/)
  expect(run.stdout.trim()).toBe("status=0")
}, 60_000)
