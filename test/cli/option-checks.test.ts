/**
 * Bad option values get a short, clear error naming the option, with the exit code the README
 * promises (1 for bad input, 2 for a usage error), no stack trace, and nothing written.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { createStore, eventsIn, memAt, tempDir, type MemRun } from "../support/cli.js"

/** An empty store: the commands that read one report a missing one before checking options. */
const fresh = () => memAt(createStore(join(tempDir(), "m.db")))
const eventCount = eventsIn
/** A clear error: one line on stderr, no stack trace, no schema dump. */
const expectClear = (result: MemRun, code: number, message: string | RegExp) => {
  expect(result.code).toBe(code)
  expect(result.stderr).toMatch(message)
  expect(result.stderr).not.toMatch(/ParseError|\n\s+at |readonly /)
  expect(result.stderr.trim().split("\n")).toHaveLength(1)
}

describe("--origin and --agent", () => {
  it("are refused as InvalidInput naming the option when empty or too long, before anything is written", () => {
    const run = fresh()
    expectClear(run("add", "x", "--global", "--origin", ""), 1, "mem: --origin cannot be empty")
    expectClear(run("add", "x", "--global", "--agent", ""), 1, "mem: --agent cannot be empty")
    expectClear(run("add", "x", "--global", "--origin", "o".repeat(501)), 1, "mem: --origin is 501 characters; the limit is 500")
    expectClear(run("add", "x", "--global", "--agent", "a".repeat(101)), 1, "mem: --agent is 101 characters; the limit is 100")
    expect(JSON.parse(run("add", "x", "--global", "--origin", "", "--json").stderr)).toEqual({ error: "InvalidInput", message: "--origin cannot be empty" })
    const { id } = run("add", "kept", "--global", "--json").json()
    expectClear(run("outcome", id, "worked", "--origin", ""), 1, "mem: --origin cannot be empty")
    expect(eventCount(run)).toBe(1)
  })
})

describe("tags", () => {
  it("refuse an empty -t like a blank one, with the same clear message", () => {
    const run = fresh()
    for (const tag of ["", "  "]) {
      const result = run("add", "x", "--global", "-t", "ok", "-t", tag, "--json")
      expect(result.code).toBe(1)
      expect(JSON.parse(result.stderr)).toEqual({ error: "InvalidInput", message: "--tag: a tag cannot be empty or blank" })
    }
    expect(eventCount(run)).toBe(0)
  })

  it("keep their errors short: a long tag is quoted to 80 characters, too many tags are counted", () => {
    const run = fresh()
    const long = run("add", "x", "--global", "-t", "t".repeat(20_000))
    expectClear(long, 1, `--tag: "${"t".repeat(80)}…" is 20000 characters; a tag is at most 100`)
    expect(long.stderr.length).toBeLessThan(200)
    const many = run("add", "x", "--global", ...Array.from({ length: 60 }, (_, i) => ["-t", `t${i}`]).flat())
    expectClear(many, 1, "mem: --tag: 60 tags; the limit is 50")
    expect(eventCount(run)).toBe(0)
  })
})

describe("the content limit", () => {
  it("counts characters (code points): 10,000 emoji fit, 10,001 are 10001 characters, not 20002 UTF-16 units", () => {
    const run = fresh()
    expect(run("add", "😀".repeat(10_000), "--global").code).toBe(0)
    expectClear(run("add", "😀".repeat(10_001), "--global"), 1, "the content is 10001 characters; the limit is 10000")
  })

  it("holds for a search's query too", () => {
    const run = fresh()
    expect(run("search", "😀".repeat(10_000), "--json").code).toBe(0)
    expectClear(run("search", "😀".repeat(10_001)), 1, "the query is 10001 characters; the limit is 10000")
  })
})

describe("numeric options", () => {
  it.each([
    [["list", "--limit", "0"], "--limit must be a whole number from 1 to 1000, not 0"],
    [["list", "-l", "-1"], "--limit must be a whole number from 1 to 1000, not -1"],
    [["list", "-l", "100000"], "--limit must be a whole number from 1 to 1000, not 100000"],
    [["search", "x", "-l", "0"], "--limit must be a whole number from 1 to 100, not 0"],
    [["why", "x", "-l", "101"], "--limit must be a whole number from 1 to 100, not 101"],
    [["log", "--limit", "0"], "--limit must be a whole number 1 or more, not 0"],
    [["log", "-l", "-5"], "--limit must be a whole number 1 or more, not -5"],
    [["log", "--since", "-1"], "--since must be a whole number 0 or more, not -1"],
    [["context", "--budget", "0"], "--budget must be a whole number from 50 to 100000, not 0"]
  ])("%j is a usage error naming the option and its range", (args, message) => {
    expectClear(fresh()(...args), 2, `mem: ${message}`)
  })

  it("accept both ends of their ranges", () => {
    const run = fresh()
    for (const args of [["list", "-l", "1000"], ["search", "x", "-l", "100"], ["log", "--since", "0", "-l", "1"], ["context", "--budget", "50"]]) {
      expect(run(...args).code).toBe(0)
    }
  })
})

describe("add's relation options", () => {
  it("are a usage error when more than one is given, named as the options", () => {
    const run = fresh()
    const { id } = run("add", "first", "--global", "--json").json()
    const both = run("add", "second", "--global", "--supersedes", id, "--confirms", id, "--json")
    expect(both.code).toBe(2)
    expect(JSON.parse(both.stderr)).toEqual({ error: "UsageError", message: "give at most one of --confirms, --supersedes and --distinct-from" })
    expect(eventCount(run)).toBe(1)
  })
})

describe("a command line the parser refuses, with --json", () => {
  it("is one JSON error object on stderr and exit 2, as every other error is; without --json, the parser's own line", () => {
    const run = fresh()
    for (const [args, message] of [
      [["list", "-l", "abc", "--json"], "'abc' is not a integer"],
      [["add", "--json"], "Missing argument <text>"],
      [["list", "--bogus", "--json"], "Received unknown argument: '--bogus'"]
    ] as const) {
      const result = run(...args)
      expect(result.code, args.join(" ")).toBe(2)
      expect(result.stdout).toBe("")
      expect(JSON.parse(result.stderr), args.join(" ")).toEqual({ error: "UsageError", message })
    }
    const plain = run("list", "-l", "abc")
    expect(plain.code).toBe(2)
    expect(plain.stderr).toContain("'abc' is not a integer")
  })
})
