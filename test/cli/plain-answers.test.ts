/**
 * The small things a person reads on every run: a mistyped option value is a usage error (exit
 * 2), counts read as English ("1 event", not "1 events"), --version prints the version alone,
 * and purge says nothing was erased when nothing was.
 */
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { VERSION } from "../../src/version.js"
import { MEM_BIN, mem, memAt, tempDir } from "../support/cli.js"

describe("why --at", () => {
  it("is a usage error (exit 2) naming the option when its value is not a time, and records nothing", () => {
    const run = memAt(join(tempDir(), "m.db"))
    run("add", "Deploy with make deploy", "--global")
    const result = run("why", "deploy", "--at", "yesterday")
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^mem: --at 'yesterday' is not a time; use ISO-8601/)
    expect(JSON.parse(run("why", "deploy", "--at", "yesterday", "--json").stderr).error).toBe("UsageError")
    expect(run("why", "deploy", "--at", "2026-01-01").code).toBe(0)
  })

  it("says on a terminal that it replays the log while it answers, and wipes that line; into a pipe it says nothing", () => {
    const db = join(tempDir(), "m.db")
    memAt(db)("add", "Deploy with make deploy", "--global")
    const at = new Date().toISOString()
    // `script` runs the command on a pseudo-terminal, as a person's shell does, and copies what it shows.
    const shown = spawnSync("script", ["-qec", `${process.execPath} ${MEM_BIN} --db ${db} why deploy --at ${at}`, "/dev/null"], { encoding: "utf8" })
    expect(shown.status, shown.stderr).toBe(0)
    const line = "replaying the log up to then (a first question about a moment reads every event before it)..."
    expect(shown.stdout).toContain(`${line}\r${" ".repeat(line.length)}\r`)
    expect(shown.stdout).toContain(`why "deploy"`)
    const piped = memAt(db)("why", "deploy", "--at", at)
    expect(piped.code).toBe(0)
    expect(piped.stderr).toBe("")
  })
})

describe("counts", () => {
  it("say one thing in the singular in every command that counts", () => {
    const dir = tempDir()
    const db = join(dir, "m.db")
    const run = memAt(db)
    writeFileSync(join(dir, "one.jsonl"), `${JSON.stringify({ content: "Use pnpm, not npm", category: "convention" })}\n`)
    const said: string[] = []
    const say = (...args: string[]) => {
      const result = mem(["--db", db, ...args], { cwd: dir })
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0)
      said.push(result.stdout)
      return result.stdout
    }
    expect(say("import", "one.jsonl")).toMatch(/^imported 1 memory,/)
    expect(say("export", "log.jsonl")).toMatch(/^exported 1 event to/)
    expect(mem(["--db", join(dir, "replayed.db"), "replay", join(dir, "log.jsonl")]).stdout).toBe("replayed 1 event\n")
    expect(say("rebuild")).toBe("rebuilt every projection from 1 event\n")
    expect(say("verify")).toMatch(/^ok: 1 event\n/)
    expect(say("conversations")).toMatch(/ 1 event, 1 memory, 0 outcomes,/)
    const id = run("list", "--json").json()[0].id as string
    say("outcome", id, "worked", "--origin", "solo")
    expect(say("stats")).toMatch(/with a record: +1 memory,/)
    expect(say("forget-conversation", "solo")).toMatch(/^forgot everything solo contributed \(1 event\)/)
    expect(say("purge", "--yes")).toMatch(/^purged: erased 1 event payload \(1 conversation\)/)
    for (const text of said) expect(text).not.toMatch(/\b1 (\w+ )?(events|memories|confirmations|conversations|outcomes|payloads)\b/)
  })
})

describe("--version", () => {
  it("prints the version and nothing else", () => {
    const result = mem(["--version"])
    expect(result.code).toBe(0)
    expect(result.stdout).toBe(`${VERSION}\n`)
  })
})

describe("purge --yes with nothing forgotten", () => {
  it("says that nothing was erased, rather than that what it did cannot be undone", () => {
    const run = memAt(join(tempDir(), "m.db"))
    run("add", "Keep this one", "--global")
    const result = run("purge", "--yes")
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/^nothing to purge/)
    expect(result.stdout).not.toMatch(/cannot be undone/)
    expect(run("purge", "--yes", "--json").json()).toMatchObject({ done: true, erasedEvents: 0 })
  })
})
