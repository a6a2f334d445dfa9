/**
 * Human output shows ids as the shortest unique prefix, at least 8 characters (README), in
 * every command that prints one; --json keeps the full ids.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"

describe("human output", () => {
  it("shows short ids in add, outcome, confirm, forget, restore, supersede and show's links", () => {
    const db = join(tempDir(), "m.db")
    const run = memAt(db)
    const { ids } = mem(["--db", db, "import", "-", "--json"], { input: '{"content":"old advice"}\n{"content":"new advice, entirely different"}\n' }).json()
    const [old, by] = ids as [string, string]
    const short = (id: string) => run("show", id, "--json").json().shortId as string
    const [o, b] = [short(old), short(by)]
    expect(o.length).toBeGreaterThanOrEqual(8)
    expect(o.length).toBeLessThan(26)

    const stored = run("add", "a third memory", "--global")
    expect(stored.stdout).toMatch(/^stored [0-9a-z]{8,25}\n$/)
    expect(run("outcome", old, by, "worked").stdout).toBe(`recorded worked for ${o}, ${b}\n`)
    expect(run("confirm", old).stdout).toBe(`confirmed ${o} (2 confirmations)\n`)
    expect(run("forget", old).stdout).toBe(`forgot ${o} (undo: mem restore ${o})\n`)
    expect(run("restore", old).stdout).toBe(`restored ${o}\n`)
    expect(run("supersede", old, by).stdout).toBe(`${o} is superseded by ${b}\n`)
    expect(run("show", old).stdout).toContain(`superseded by: ${b}\n`)
  })

  it("keeps full ids with --json", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const { id } = run("add", "one memory", "--global", "--json").json()
    expect(id).toHaveLength(26)
    expect(run("outcome", id, "worked", "--json").json()).toMatchObject({ memoryIds: [id], memory_ids: [id] })
    expect(run("forget", id, "--json").json()).toMatchObject({ id })
  })
})
