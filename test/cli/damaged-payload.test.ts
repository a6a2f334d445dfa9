/**
 * A payload byte damaged on disk (a store whose pages SQLite still reads) is named by the event
 * it belongs to: verify reports the event, export refuses naming it and leaves no file, and
 * `export --verified` writes the events before it, which replay takes into a new store. Once
 * verify has found the log broken, every process refuses to write to it, saying how to recover;
 * a later verify that finds the log whole again lifts that.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { describe, expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"
import { connectStdio, textOf } from "../mcp/support.js"

const TEXTS = ["first memory of three", "second memory about deploys", "third memory on tests"]
const DAMAGED = Buffer.from('"content":"second memory')
const AS_DAMAGED = Buffer.from('"content";"second memory')

/** A store of three memories whose second event's payload has one byte changed in the file. */
const damagedStore = (): string => {
  const db = join(tempDir(), "m.db")
  const run = memAt(db)
  for (const text of TEXTS) expect(run("add", text, "--global").code).toBe(0)
  swapBytes(db, DAMAGED, AS_DAMAGED)
  return db
}

/** Replaces the one occurrence of `from` in the file by `to`, of the same length, in place. */
const swapBytes = (path: string, from: Buffer, to: Buffer): void => {
  const bytes = readFileSync(path)
  const at = bytes.indexOf(from)
  expect(at).toBeGreaterThan(0)
  expect(bytes.indexOf(from, at + 1)).toBe(-1)
  to.copy(bytes, at)
  writeFileSync(path, bytes)
}

const eventCount = (db: string): number => {
  const raw = new Database(db, { readonly: true })
  try {
    return (raw.prepare("SELECT count(*) AS n FROM events").get() as { n: number }).n
  } finally {
    raw.close()
  }
}

const NO_TRACE = /SyntaxError|SqliteError|\n\s+at /

describe("a damaged payload byte", () => {
  it("is reported by verify as the event it belongs to, without a stack trace", () => {
    const db = damagedStore()
    const json = memAt(db)("verify", "--json")
    expect(json.code).toBe(1)
    expect(json.stderr).not.toMatch(NO_TRACE)
    expect(json.json()).toMatchObject({ ok: false, events: 3, chain: { ok: false, brokenAt: 2, reason: expect.stringMatching(/payload does not match its hash/) } })
    const human = memAt(db)("verify")
    expect(human.code).toBe(1)
    expect(human.stdout).toMatch(/^FAILED: 3 events\nhash chain: {3}broken at #2: the payload does not match its hash/)
    expect(human.stderr).not.toMatch(NO_TRACE)
  })

  it("makes export refuse, naming the event, and leave no file behind", () => {
    const db = damagedStore()
    const out = join(tempDir(), "log.jsonl")
    const result = memAt(db)("export", out, "--json")
    expect(result.code).toBe(1)
    expect(result.stderr).not.toMatch(NO_TRACE)
    expect(JSON.parse(result.stderr).message).toMatch(/event #2 does not verify \(the payload does not match its hash.*\); nothing was written.*--verified/)
    expect(existsSync(out)).toBe(false)
  })

  it("export --verified writes the events before it, and replay makes a new store of them", () => {
    const db = damagedStore()
    const out = join(tempDir(), "good.jsonl")
    const exported = memAt(db)("export", out, "--verified", "--json")
    expect(exported.code).toBe(0)
    expect(exported.json()).toMatchObject({ events: 1, file: out, stoppedAt: 2 })
    const fresh = memAt(join(tempDir(), "new.db"))
    expect(fresh("replay", out, "--json").json()).toEqual({ events: 1 })
    expect(fresh("verify", "--json").json()).toMatchObject({ ok: true, events: 1 })
  })
})

describe("a log verify found broken", () => {
  it("is written to by no process, each saying how to recover, until a verify finds it whole again", async () => {
    const db = damagedStore()
    const run = memAt(db)
    expect(run("verify").code).toBe(1)

    const added = run("add", "a fourth memory", "--global", "--json")
    expect(added.code).toBe(1)
    const refusal = JSON.parse(added.stderr)
    expect(refusal.error).toBe("LogBroken")
    expect(refusal.message).toMatch(/event #2/)
    expect(refusal.message).toMatch(/export --verified .*replay/)
    expect(mem(["--db", db, "import", "-"], { input: '{"content":"an imported memory"}\n' }).stderr).toMatch(/^mem: .*event #2.*export --verified/)
    expect(run("rebuild").stderr).toMatch(/^mem: .*event #2.*export --verified/)

    const agent = await connectStdio(db)
    try {
      const remembered = (await agent.client.callTool({ name: "remember", arguments: { content: "an agent's memory", scope: "global" } })) as CallToolResult
      expect(remembered.isError).toBe(true)
      expect(textOf(remembered)).toMatch(/event #2.*export --verified/)
    } finally {
      await agent.close()
    }
    expect(eventCount(db)).toBe(3)

    // Put back as it was (say, from a backup of the page): the chain is whole, and writes resume.
    swapBytes(db, AS_DAMAGED, DAMAGED)
    const whole = run("verify")
    expect(whole.code).toBe(0)
    expect(whole.stdout).toMatch(/the log verified broken at #2 before; it is whole now, so writes are allowed again/)
    expect(run("add", "a fourth memory", "--global").code).toBe(0)
    expect(eventCount(db)).toBe(4)
  })
})
