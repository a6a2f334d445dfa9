/**
 * Bad input gets a clear error and loses nothing: exit 1 for a domain error, 2 for a usage
 * error, the message on stderr (as JSON with --json), and the store unchanged.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { createHash } from "node:crypto"
import { join } from "node:path"
import Database from "better-sqlite3"
import { describe, expect, it } from "vitest"
import { memStarted } from "../support/cli-async.js"
import { eventsIn, holdWriteLock, mem, memAt, tempDir } from "../support/cli.js"
import { untilWaitingForLock } from "../support/waiting.js"

const eventCount = eventsIn
const fileHash = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex")

describe("bad input", () => {
  it("refuses empty and oversized content, and stores nothing", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const empty = run("add", "   ", "--global", "--json")
    expect(empty.code).toBe(1)
    expect(JSON.parse(empty.stderr)).toMatchObject({ error: "InvalidContent" })
    expect(empty.stdout).toBe("")
    const huge = run("add", "x".repeat(10_001), "--global")
    expect(huge.code).toBe(1)
    expect(huge.stderr).toMatch(/10001 characters; the limit is 10000/)
    expect(eventCount(run)).toBe(0)
  })

  it("names every valid category when given an unknown one (usage error)", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const result = run("add", "text", "-c", "gotchas")
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("unknown category 'gotchas'")
    expect(result.stderr).toContain("architecture, convention, decision, pattern, gotcha, workaround, troubleshooting, command, preference, general")
  })

  it("reports unknown, too short and ambiguous ids with the candidates", () => {
    const db = join(tempDir(), "m.db")
    const run = memAt(db)
    // Imported together, the ids share their minute: the first 6 characters.
    const { ids } = mem(["--db", db, "import", "-", "--json"], { input: '{"content":"one"}\n{"content":"two"}\n' }).json()
    expect(run("show", "zzzzzzzz").stderr).toMatch(/no memory has the id zzzzzzzz/)
    expect(run("show", "zzzzzzzz").code).toBe(1)
    expect(run("show", ids[0].slice(0, 4)).code).toBe(2)
    const ambiguous = run("show", ids[0].slice(0, 6), "--json")
    expect(ambiguous.code).toBe(1)
    const error = JSON.parse(ambiguous.stderr)
    expect(error.error).toBe("AmbiguousId")
    expect(error.message).toContain(ids[0].slice(0, 8))
    expect(error.message).toContain(ids[1].slice(0, 8))
  })

  it("refuses to supersede a memory by itself and to score a forgotten memory", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const { id } = run("add", "a", "--global", "--json").json()
    expect(run("supersede", id, id).stderr).toMatch(/cannot supersede itself/)
    run("forget", id)
    const before = eventCount(run)
    const outcome = run("outcome", id, "worked")
    expect(outcome.code).toBe(1)
    expect(outcome.stderr).toMatch(/is forgotten.*mem restore/)
    expect(run("outcome", id, "great").code).toBe(2)
    expect(eventCount(run)).toBe(before)
  })

  it("imports nothing from a file with a malformed line, and names the line", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const file = join(tempDir(), "in.jsonl")
    writeFileSync(file, ['{"content":"fine"}', '{"content":"also fine","category":"gotcha"}', "{not json", '{"content":"x"}'].join("\n"))
    const result = run("import", file, "--json")
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr)).toMatchObject({ error: "ImportLineInvalid", message: expect.stringContaining("line 3") })
    writeFileSync(file, '{"content":"fine"}\n{"content":"bad","category":"nope"}\n')
    expect(run("import", file).stderr).toMatch(/line 2: unknown category 'nope'/)
    expect(eventCount(run)).toBe(0)
  })

  it("never touches a SQLite file that is not a memledger store", () => {
    const db = join(tempDir(), "theirs.db")
    const foreign = new Database(db)
    foreign.exec("CREATE TABLE accounts (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO accounts (name) VALUES ('alice')")
    foreign.close()
    const before = fileHash(db)
    const result = memAt(db)("add", "x", "--global", "--json")
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr)).toMatchObject({ error: "DatabaseUnusable", message: expect.stringContaining("not a memledger store") })
    expect(fileHash(db)).toBe(before)
  })

  it("reports a damaged file and leaves it as it was", () => {
    const db = join(tempDir(), "broken.db")
    writeFileSync(db, Buffer.from("this is not a database at all, just some bytes ".repeat(200)))
    const before = fileHash(db)
    const result = memAt(db)("stats")
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/not a SQLite database or it is damaged/)
    expect(fileHash(db)).toBe(before)
  })

  it("waits for a locked database, then succeeds", async () => {
    const db = join(tempDir(), "m.db")
    const run = memAt(db)
    run("add", "first", "--global")
    // Another process holds the write lock, as a busy agent's MCP server might, until mem waits for it.
    const holder = await holdWriteLock(db)
    const adding = memStarted(["--db", db, "add", "second", "--global", "--json"])
    await untilWaitingForLock(adding)
    await holder.release()
    const blocked = await adding.result
    expect(blocked.code, blocked.stderr).toBe(0)
    expect(blocked.json().stored).toBe(true)
    expect(run("list", "--json").json()).toHaveLength(2)
  })
})
