/**
 * `mem export` writes only where an export belongs: never over the store's own file or its
 * -wal/-shm (by any path, even with --force), and a folder or a missing folder is a clear
 * usage error, not a stack trace.
 */
import { createHash } from "node:crypto"
import { linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { memAt, tempDir } from "../support/cli.js"

const fileHash = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex")

const storeWithTwoMemories = () => {
  const dir = tempDir()
  const db = join(dir, "self.db")
  const run = memAt(db)
  run("add", "first memory", "--global")
  run("add", "second memory", "--global")
  return { dir, db, run }
}

describe("export refuses the store's own file", () => {
  it.each([
    ["the store's path", (_dir: string, db: string) => db],
    ["a symlink to it", (dir: string, db: string) => (symlinkSync(db, join(dir, "link.db")), join(dir, "link.db"))],
    ["a hard link to it", (dir: string, db: string) => (linkSync(db, join(dir, "hard.db")), join(dir, "hard.db"))],
    ["its -wal", (_dir: string, db: string) => `${db}-wal`],
    ["its -shm", (_dir: string, db: string) => `${db}-shm`]
  ])("%s, even with --force, and touches nothing", (_name, target) => {
    const { dir, db, run } = storeWithTwoMemories()
    const before = fileHash(db)
    const result = run("export", target(dir, db), "--force", "--json")
    expect(result.code).toBe(2)
    expect(JSON.parse(result.stderr)).toMatchObject({ error: "ExportTargetInvalid", message: expect.stringContaining("store's own file") })
    expect(fileHash(db)).toBe(before)
    expect(run("verify", "--json").json()).toMatchObject({ ok: true, events: 2 })
  })
})

describe("export to a path that cannot be a file", () => {
  it("names a folder as a folder", () => {
    const { dir, run } = storeWithTwoMemories()
    const folder = join(dir, "d1")
    mkdirSync(folder)
    const result = run("export", folder, "--force")
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`mem: cannot export to ${folder}: it is a directory; give a file path; nothing was written\n`)
  })

  it("names a folder as a folder without --force too, rather than offering to overwrite it", () => {
    const { dir, run } = storeWithTwoMemories()
    const folder = join(dir, "d2")
    mkdirSync(folder)
    const result = run("export", folder)
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`mem: cannot export to ${folder}: it is a directory; give a file path; nothing was written\n`)
  })

  it("says the folder is missing, rather than ENOENT's stack trace", () => {
    const { dir, run } = storeWithTwoMemories()
    const target = join(dir, "nonexistent", "dir", "x.jsonl")
    const result = run("export", target)
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/the folder .*nonexistent\/dir does not exist; nothing was written\n$/)
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  it("says a path runs through a regular file", () => {
    const { dir, run } = storeWithTwoMemories()
    writeFileSync(join(dir, "notafile.txt"), "x")
    const result = run("export", join(dir, "notafile.txt", "x.jsonl"))
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/notafile\.txt is not a directory; nothing was written\n$/)
  })

  it("still overwrites an ordinary earlier export with --force", () => {
    const { dir, run } = storeWithTwoMemories()
    const file = join(dir, "log.jsonl")
    writeFileSync(file, "old\n")
    expect(run("export", file, "--force", "--json").json()).toMatchObject({ events: 2 })
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(2)
  })
})
