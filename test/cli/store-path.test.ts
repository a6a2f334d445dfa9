/**
 * A --db that cannot be a store file is a usage error in the option's words (exit 2), checked
 * before anything is created; the same paths through MEMLEDGER_DB are a clear error (exit 1).
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, tempDir } from "../support/cli.js"

describe("--db", () => {
  it("is refused when empty, rather than meaning the current folder", () => {
    const cwd = tempDir()
    const result = mem(["--db", "", "stats"], { cwd })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe("mem: --db is empty; give the store file's path\n")
  })

  it.each([["stats"], ["verify"]])("naming a folder is refused in words (%s)", (command) => {
    const dir = join(tempDir(), "somedir")
    mkdirSync(dir)
    const result = mem(["--db", dir, command])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`mem: --db ${dir} is a directory; give a file path\n`)
  })

  it("under a regular file is refused without ENOTDIR's stack trace", () => {
    const dir = tempDir()
    writeFileSync(join(dir, "notafile.txt"), "x")
    const result = mem(["--db", "notafile.txt/x.db", "stats"], { cwd: dir })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(`mem: --db notafile.txt/x.db: ${join(dir, "notafile.txt")} is not a directory, so nothing can be created under it\n`)
  })

  it("through MEMLEDGER_DB, the same path is reported and nothing is created", () => {
    const dir = tempDir()
    writeFileSync(join(dir, "notafile.txt"), "x")
    const result = mem(["stats", "--json"], { cwd: dir, env: { MEMLEDGER_DB: join(dir, "notafile.txt", "x.db") } })
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr)).toMatchObject({ error: "DatabaseUnusable", message: expect.stringContaining("is not a directory") })
    const folder = join(dir, "somedir")
    mkdirSync(folder)
    const onFolder = mem(["stats"], { env: { MEMLEDGER_DB: folder } })
    expect(onFolder.code).toBe(1)
    expect(onFolder.stderr).toBe(`mem: cannot use ${folder}: it is a directory; give a file path\n`)
    expect(existsSync(join(folder, "x.db"))).toBe(false)
  })
})

describe("a store that does not exist", () => {
  const outFile = join(tempDir(), "out.jsonl")
  // Each reads a store, or changes what is in one: none has anything to do on a missing file.
  it.each([
    ["stats"],
    ["search", "deploy"],
    ["list"],
    ["show", "0abcdef0"],
    ["why", "deploy"],
    ["context"],
    ["log"],
    ["conversations"],
    ["export", outFile],
    ["verify"],
    ["rebuild"],
    ["forget", "0abcdef0"]
  ])("is reported by %s, which creates neither the file nor its folders", (...args) => {
    const dir = tempDir()
    const db = join(dir, "mistyped", "folder", "m.db")
    const result = mem(["--db", db, ...args, "--json"])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr)).toEqual({ error: "StoreNotFound", message: `there is no store at ${db}; nothing was created (check --db or MEMLEDGER_DB; 'mem add' or 'mem import' starts a store)` })
    expect(existsSync(join(dir, "mistyped"))).toBe(false)
    expect(existsSync(outFile)).toBe(false)
  })

  it("through MEMLEDGER_DB is reported the same way, in words without --json", () => {
    const dir = tempDir()
    const db = join(dir, "nope.db")
    const result = mem(["list"], { env: { MEMLEDGER_DB: db } })
    expect(result.code).toBe(1)
    expect(result.stderr).toBe(`mem: there is no store at ${db}; nothing was created (check --db or MEMLEDGER_DB; 'mem add' or 'mem import' starts a store)\n`)
    expect(existsSync(db)).toBe(false)
  })

  it("is created, folders and all, by the commands that write the first memories", () => {
    const dir = tempDir()
    const db = join(dir, "new", "m.db")
    expect(mem(["--db", db, "add", "the first memory", "--global"]).code).toBe(0)
    expect(mem(["--db", db, "stats", "--json"]).json()).toMatchObject({ events: 1 })
    const imported = join(dir, "other", "m.db")
    expect(mem(["--db", imported, "import", "-"], { input: '{"content":"an imported memory"}\n' }).code).toBe(0)
    expect(existsSync(imported)).toBe(true)
  })
})
