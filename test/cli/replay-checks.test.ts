/**
 * Replay rebuilds only a whole, unedited export: a line deleted (first or middle), repeated or
 * edited is named and nothing is kept; a replay that fails to read its file leaves no store
 * file behind; import refuses an exported event whose payload was edited. Into every store.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { createStore, eventsIn, memAt, tempDir } from "../support/cli.js"
import { describeEachStore } from "../support/services.js"

/** Unlike each other, so that each is stored rather than offered as a confirmation. */
const TEXTS = ["use pnpm for installs", "deploy with make deploy", "the api lives in src/api", "never force-push main", "answer in English"]

/** An export of five events, as lines. */
const exportedLines = (): string[] => {
  const dir = tempDir()
  const run = memAt(join(dir, "a.db"))
  for (const text of TEXTS) run("add", text, "--global")
  const file = join(dir, "log.jsonl")
  run("export", file)
  return readFileSync(file, "utf8").trim().split("\n")
}

/** Writes `lines` to a file and runs `command` (replay or import) on it into the empty store at `location`. */
const fedLines = (command: "replay" | "import", lines: ReadonlyArray<string>, location: string) => {
  const file = join(tempDir(), "log.jsonl")
  writeFileSync(file, lines.join("\n") + "\n")
  const target = memAt(location)
  return { result: target(command, file), target }
}

/** The import of `lines` fails naming the line, with no stack trace, and imports nothing. */
const expectImportRefused = (lines: ReadonlyArray<string>, message: RegExp, location: string) => {
  const { result, target } = fedLines("import", lines, location)
  expect(result.code).toBe(1)
  expect(result.stderr).toMatch(message)
  expect(result.stderr).not.toMatch(/SqliteError|PgError|\n\s+at /)
  expect(eventsIn(target)).toBe(0)
}

/** Line `i` of `lines` with one envelope field set to another value: what a hand edit does. */
const withField = (lines: ReadonlyArray<string>, i: number, field: string, value: unknown): string[] =>
  lines.map((l, n) => (n === i ? JSON.stringify({ ...JSON.parse(l), [field]: value }) : l))

const lines = exportedLines()

describeEachStore((store) => {
  const replayLines = async (fed: ReadonlyArray<string>) => fedLines("replay", fed, await store.fresh())

  describe("replay refuses an incomplete or edited export", () => {
    it.each([
      ["the first line deleted", lines.slice(1), /^mem: line 1: event #1 is missing before this line/],
      ["a middle line deleted", [...lines.slice(0, 2), ...lines.slice(3)], /^mem: line 3: event #3 is missing before this line/],
      ["two middle lines deleted", [lines[0]!, ...lines.slice(3)], /^mem: line 2: events #2 to #3 are missing before this line/],
      ["a line repeated", [...lines.slice(0, 3), lines[2]!, ...lines.slice(3)], /^mem: line 4: event #3 comes a second time/],
      ["the last line repeated at the end", [...lines, lines[4]!], /^mem: line 6: event #5 comes a second time/]
    ])("%s: names the line, keeps nothing", async (_name, edited, message) => {
      const { result, target } = await replayLines(edited)
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(message)
      expect(result.stderr).not.toMatch(/SqliteError|PgError|\n\s+at /)
      expect(eventsIn(target)).toBe(0)
    })

    it("an event id repeated under another sequence number is named, not a UNIQUE constraint", async () => {
      const second = JSON.parse(lines[1]!)
      const forged = JSON.stringify({ ...second, id: JSON.parse(lines[0]!).id })
      const { result } = await replayLines([lines[0]!, forged, ...lines.slice(2)])
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/^mem: line 2: the event id \w+ is on an earlier line too/)
    })

    it("a whole export still replays to the same chain", async () => {
      const { result, target } = await replayLines(lines)
      expect(result.code).toBe(0)
      expect(target("verify", "--json").json()).toMatchObject({ ok: true, events: 5 })
    })
  })

  describe("import refuses an incomplete, reordered or edited export, as replay does", () => {
    it.each([
      ["the first line deleted", lines.slice(1), /^mem: line 1: event #1 is missing before this line/],
      ["a middle line deleted", [...lines.slice(0, 2), ...lines.slice(3)], /^mem: line 3: event #3 is missing before this line/],
      ["a line repeated", [...lines.slice(0, 3), lines[2]!, ...lines.slice(3)], /^mem: line 4: event #3 comes a second time/],
      ["two lines swapped", [lines[0]!, lines[2]!, lines[1]!, ...lines.slice(3)], /^mem: line 2: event #2 is missing before this line/],
      ["an edited origin", withField(lines, 2, "origin", "claude-code:session/forged"), /^mem: line 3: the hash chain does not match the export/],
      ["an edited recordedAt", withField(lines, 1, "recordedAt", "2020-01-01T00:00:00.000Z"), /^mem: line 2: the hash chain does not match the export/],
      ["an edited agent", withField(lines, 4, "agent", "someone-else"), /^mem: line 5: the hash chain does not match the export/]
    ])("%s: names the line, imports nothing", async (_name, edited, message) => expectImportRefused(edited, message, await store.fresh()))

    it("an edited origin is refused by replay too", async () => {
      const { result, target } = await replayLines(withField(lines, 2, "origin", "claude-code:session/forged"))
      expect(result.code).toBe(1)
      expect(result.stderr).toMatch(/^mem: line 3: the hash chain does not match the export/)
      expect(eventsIn(target)).toBe(0)
    })

    it("a whole export imports, into an empty store or beside other memories", async () => {
      const file = join(tempDir(), "log.jsonl")
      writeFileSync(file, lines.join("\n") + "\n")
      const run = memAt(await store.fresh())
      run("add", "a memory of this store's own", "--global")
      expect(run("import", file, "--json").json()).toMatchObject({ events: 5 })
      expect(run("verify", "--json").json()).toMatchObject({ ok: true, events: 6 })
    })
  })

  describe("import of exported events", () => {
    it("refuses an event whose payload was edited, naming the line", async () => {
      const edited = lines.map((l, i) => (i === 2 ? l.replace("the api lives in src/api", "the api lives in lib/api") : l))
      expectImportRefused(edited, /^mem: line 3: the payload does not match its payloadHash \(the line was edited\)/, await store.fresh())
    })
  })
})

// SQLite alone: whether a failed replay leaves a store file behind is a question about files.
describe("replay of a file that cannot be read", () => {
  it("fails with a usage error and creates no store file", () => {
    const dir = tempDir()
    const db = join(dir, "new.db")
    const result = memAt(db)("replay", join(dir, "nosuch.jsonl"))
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/cannot read .*nosuch\.jsonl/)
    expect(existsSync(db)).toBe(false)
    expect(existsSync(`${db}-wal`)).toBe(false)
  })

  it("leaves an existing store file alone when it fails", () => {
    const dir = tempDir()
    const db = join(dir, "kept.db")
    createStore(db)
    expect(memAt(db)("replay", join(dir, "nosuch.jsonl")).code).toBe(2)
    expect(existsSync(db)).toBe(true)
  })
})
