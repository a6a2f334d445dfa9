/**
 * A damaged store is said to be damaged and is never written to: a page of a small store is
 * overwritten with random bytes (as `dd ... seek=3 conv=notrunc` would), then every command
 * that meets the damage reports it in words with exit 1, and rebuild and purge refuse before
 * touching anything. verify on a tampered log counts the log's events, not the good ones.
 */
import { createHash, randomBytes } from "node:crypto"
import { closeSync, copyFileSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import { beforeAll, describe, expect, it } from "vitest"
import { memAt, tempDir } from "../support/cli.js"

const fileHash = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex")

/** A copy of a small store whose fourth 4 KiB page is garbage. */
const damagedCopy = (source: string): string => {
  const copy = join(tempDir(), "copy.db")
  copyFileSync(source, copy)
  const fd = openSync(copy, "r+")
  writeSync(fd, randomBytes(4096), 0, 4096, 3 * 4096)
  closeSync(fd)
  return copy
}

describe("a damaged store", () => {
  let source = ""
  beforeAll(() => {
    source = join(tempDir(), "small.db")
    const run = memAt(source)
    for (const n of [1, 2, 3, 4, 5]) run("add", `memory number ${n}`, "--global")
    run("forget-conversation", "cli")
  })

  it.each([["rebuild"], ["purge", "--yes"]])("%s runs SQLite's quick check first and refuses, leaving the file as it was", (...args) => {
    const db = damagedCopy(source)
    const before = fileHash(db)
    const result = memAt(db)(...args, "--json")
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr)).toMatchObject({ error: "StoreDamaged", message: expect.stringContaining(`the store at ${db} is damaged`) })
    expect(JSON.parse(result.stderr).message).toMatch(/it was left untouched; 'mem verify' tells more/)
    expect(fileHash(db)).toBe(before)
  })

  it("a write that meets the damage is reported in words, with no stack trace, and leaves the file as it was", () => {
    const db = damagedCopy(source)
    const before = fileHash(db)
    const result = memAt(db)("add", "a new memory", "--global")
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(new RegExp(`^mem: the store at ${db} is damaged \\(database disk image is malformed\\); it was left untouched`))
    expect(result.stderr).not.toMatch(/SqliteError|InternalError|\n\s+at /)
    expect(fileHash(db)).toBe(before)
  })

  it("verify reports the damage and what of the log still reads, and fails", () => {
    const db = damagedCopy(source)
    const result = memAt(db)("verify", "--json")
    expect(result.code).toBe(1)
    const report = result.json()
    expect(report.ok).toBe(false)
    expect(report.integrity).not.toBe("ok")
  })
})

describe("verify on a tampered log", () => {
  it("counts every event of the log, not the ones before the break", () => {
    const db = join(tempDir(), "t.db")
    const run = memAt(db)
    const dir = tempDir()
    const file = join(dir, "n.jsonl")
    const lines = Array.from({ length: 27 }, (_, i) => JSON.stringify({ content: `note number ${i + 1}` }))
    writeFileSync(file, lines.join("\n") + "\n")
    expect(run("import", file, "--json").json()).toMatchObject({ imported: 27 })
    const raw = new Database(db)
    raw.exec("DROP TRIGGER events_append_only_update")
    raw.prepare("UPDATE events SET payload = replace(payload, 'number 3', 'number X') WHERE seq = 3").run()
    raw.close()
    const result = run("verify")
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/^FAILED: 27 events\nhash chain: {3}broken at #3: the payload does not match its hash/)
  })
})
