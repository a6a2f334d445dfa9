/**
 * `mem backup restore FILE` puts a copy back only once it verifies, and only while no other
 * process has the store open: a damaged copy, a file that is no store, and a store a server has
 * open are refused, with nothing changed, neither the store nor the copy. A restore that goes
 * ahead keeps the store as it was, moved aside.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"
import { startServe, stopAllServers } from "../support/serve.js"

const MARKER = "q4w-restore-marker-8xz"

afterEach(stopAllServers)

/** A store with a copy of its first two memories, and a third memory written after the copy. */
const storeAndCopy = () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const run = memAt(db)
  expect(run("add", `the staging host is ${MARKER}`, "--global").code).toBe(0)
  expect(run("add", "deploy with make deploy", "--global").code).toBe(0)
  const copy = run("backup", join(dir, "copies"), "--json").json().file as string
  expect(run("add", "answer in English", "--global").code).toBe(0)
  return { dir, db, run, copy }
}

/** Every file in the store's folder and its bytes (the copies' folder aside). */
const filesOf = (dir: string) => readdirSync(dir).filter((name) => name !== "copies").map((name) => [name, readFileSync(join(dir, name))])

/** Changes one character in every place the copy holds the marker: in the log's payload too, so its hash no longer matches. */
const damage = (file: string): void => {
  const bytes = readFileSync(file)
  const marker = Buffer.from(MARKER)
  let at = bytes.indexOf(marker)
  expect(at).toBeGreaterThanOrEqual(0)
  for (; at >= 0; at = bytes.indexOf(marker, at + 1)) bytes[at] = "Q".charCodeAt(0)
  writeFileSync(file, bytes)
}

describe("mem backup restore", () => {
  it("refuses a copy whose bytes were changed, and changes nothing", () => {
    const { dir, db, run, copy } = storeAndCopy()
    damage(copy)
    const damagedCopy = readFileSync(copy)
    const before = filesOf(dir)
    const result = mem(["--db", db, "backup", "restore", copy])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/refusing to restore .*: it does not verify: its hash chain is broken at event #1 \(.*\); nothing was changed/)
    expect(filesOf(dir)).toEqual(before)
    expect(readFileSync(copy)).toEqual(damagedCopy)
    expect(run("list", "--json").json()).toHaveLength(3)
  })

  it("refuses a file that is not a store, and changes nothing", () => {
    const { dir, db } = storeAndCopy()
    const junk = join(dir, "copies", "junk.db")
    writeFileSync(junk, "this is not a SQLite file ".repeat(200))
    const before = filesOf(dir)
    const result = mem(["--db", db, "backup", "restore", junk, "--json"])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stderr)).toMatchObject({ error: "RestoreRefused" })
    expect(JSON.parse(result.stderr).message).toMatch(/not a SQLite database or it is damaged/)
    expect(filesOf(dir)).toEqual(before)
  })

  it("refuses while a server has the store open, and changes nothing", async () => {
    const { dir, db, run, copy } = storeAndCopy()
    const server = await startServe(db)
    const result = mem(["--db", db, "backup", "restore", copy])
    expect(result.code).toBe(1)
    expect(result.stderr).toContain("another process has the store open")
    expect((await server.call("GET", "/health")).status).toBe(200)
    await server.stop()
    expect(readdirSync(dir).filter((name) => name.includes("before-restore") || name.includes("restoring"))).toEqual([])
    expect(run("list", "--json").json()).toHaveLength(3)
  })

  it("puts the copy in place and moves the store aside, saying both", () => {
    const { dir, db, run, copy } = storeAndCopy()
    const result = run("backup", "restore", copy)
    expect(result.code, result.stderr).toBe(0)
    const aside = /the store as it was is now (\S+)/.exec(result.stdout)![1]!
    expect(result.stdout).toContain(`restored ${copy} (2 events, verified) to ${db}`)
    expect(run("list", "--json").json()).toHaveLength(2)
    expect(mem(["--db", aside, "list", "--json"]).json()).toHaveLength(3)
    expect(readdirSync(dir).sort()).toEqual(["copies", "m.db", aside.slice(dir.length + 1)].sort())
  })
})
