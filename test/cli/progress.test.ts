/**
 * Long work says how far it is: verify, rebuild, import, purge and export draw a progress bar
 * on stderr when stderr is a terminal, and print nothing there when it is a pipe (a script or
 * a log reads only the result).
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, MEM_BIN, memAt, tempDir } from "../support/cli.js"
import { onTerminal, shellQuote } from "../support/terminal.js"

/** A store with memories and a forgotten conversation (something for purge to erase), and a file to import. */
const setup = () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const run = memAt(db)
  run("add", "Deploy with make deploy ENV=prod", "--global", "--origin", "codex:thread/x")
  run("add", "Use pnpm, not npm", "--global")
  run("forget-conversation", "codex:thread/x")
  writeFileSync(join(dir, "more.jsonl"), `${JSON.stringify({ content: "Postgres 16 is required" })}\n`)
  return { dir, db }
}

const COMMANDS: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["verifying", ["verify"]],
  ["rebuilding", ["rebuild"]],
  ["importing", ["import", "more.jsonl"]],
  ["exporting", ["export", "log.jsonl", "--force"]],
  ["purging", ["purge", "--yes"]]
]

describe.each(COMMANDS)("%s", (label, args) => {
  it("draws a bar on stderr when it is a terminal, the result still on stdout", () => {
    const { dir, db } = setup()
    const out = join(dir, "stdout.txt")
    const line = `cd ${shellQuote(dir)} && node ${shellQuote(MEM_BIN)} --db ${shellQuote(db)} ${args.map(shellQuote).join(" ")} > ${shellQuote(out)}`
    const screen = onTerminal(line)
    expect(screen.code, screen.text).toBe(0)
    expect(screen.text).toMatch(new RegExp(`${label} \\[#+\\] 100%`))
  })

  it("prints nothing on stderr when it is a pipe", () => {
    const { dir, db } = setup()
    const result = mem(["--db", db, ...args], { cwd: dir })
    expect(result.code).toBe(0)
    expect(result.stderr).toBe("")
  })
})
