/**
 * Lists that can be long stop at a limit and say so: `mem log` shows the newest events first,
 * 50 unless told otherwise, and says when older ones exist; `mem list` says when it stopped at
 * its limit. A script reads the same events, newest first, with the notice on stderr.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"

/** A store of `n` events: one import of `n` memories. */
const storeOf = (n: number) => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const lines = Array.from({ length: n }, (_, i) => JSON.stringify({ content: `Memory number ${i + 1} about topic ${i + 1}` }))
  writeFileSync(join(dir, "many.jsonl"), `${lines.join("\n")}\n`)
  expect(mem(["--db", db, "import", join(dir, "many.jsonl")]).code).toBe(0)
  return memAt(db)
}

const seqsOf = (text: string): number[] => [...text.matchAll(/^#(\d+) /gm)].map((m) => Number(m[1]))

describe("mem log", () => {
  it("shows the 50 newest events, newest first, and a line saying that older ones exist", () => {
    const run = storeOf(60)
    const result = run("log")
    expect(result.code).toBe(0)
    expect(seqsOf(result.stdout)).toEqual(Array.from({ length: 50 }, (_, i) => 60 - i))
    expect(result.stdout.trim().split("\n").at(-1)).toMatch(/older events not shown.*--limit/)
  })

  it("shows them all with a limit that reaches back to the first, and then says nothing more", () => {
    const run = storeOf(60)
    const all = run("log", "--limit", "60")
    expect(seqsOf(all.stdout)).toEqual(Array.from({ length: 60 }, (_, i) => 60 - i))
    expect(all.stdout).not.toMatch(/not shown/)
    expect(seqsOf(run("log", "--since", "55").stdout)).toEqual([60, 59, 58, 57, 56])
  })

  it("gives a script the same events, newest first, with the notice on stderr and none when nothing is left out", () => {
    const run = storeOf(60)
    const json = run("log", "--json")
    expect(json.json().map((e: { seq: number }) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => 60 - i))
    expect(json.stderr).toMatch(/older events not shown/)
    const few = run("log", "-l", "100", "--json")
    expect(few.json()).toHaveLength(60)
    expect(few.stderr).toBe("")
  })
})

describe("mem list", () => {
  it("says when it stopped at its limit, and nothing when every memory fit", () => {
    const run = storeOf(3)
    const cut = run("list", "-l", "2")
    expect(cut.stdout.trim().split("\n")).toHaveLength(3)
    expect(cut.stdout.trim().split("\n").at(-1)).toMatch(/more memories not shown.*--limit/)
    expect(JSON.parse(run("list", "-l", "2", "--json").stdout)).toHaveLength(2)
    expect(run("list", "-l", "2", "--json").stderr).toMatch(/more memories not shown/)
    const whole = run("list", "-l", "3")
    expect(whole.stdout.trim().split("\n")).toHaveLength(3)
    expect(whole.stdout).not.toMatch(/not shown/)
  })
})
