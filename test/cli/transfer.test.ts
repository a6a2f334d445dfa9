/**
 * Moving the log: import (ids in file order, restatements confirmed), export then replay into
 * an empty store (the same memories, counts and hash chain), verify, and purge leaving no
 * byte of forgotten text on disk, on every store.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { eventsIn, memAt, tempDir } from "../support/cli.js"
import { databaseFilesHold } from "../support/postgres.js"
import { describeEachStore } from "../support/services.js"

const memoryLines = [
  { content: "Prefer vitest over jest here", category: "convention", project: "github.com/acme/app", tags: ["testing"] },
  { content: "Deploy with make deploy ENV=prod", category: "command", project: "github.com/acme/app", origin: "claude-code:session/7" },
  { content: "Answer in English", category: "preference", project: null },
  { content: "prefer Vitest over jest here.", category: "convention", project: "github.com/acme/app" },
  { content: "Old note from 2024", createdAt: "2024-03-01T12:00:00Z" }
]

describe("import", () => {
  it("imports memories with ids in file order and confirms restatements", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const file = join(tempDir(), "in.jsonl")
    writeFileSync(file, memoryLines.map((l) => JSON.stringify(l)).join("\n") + "\n")
    const report = run("import", file, "--json").json()
    expect(report).toMatchObject({ imported: 4, confirmed: 1 })
    expect(report.ids).toHaveLength(5)
    expect(report.ids[3]).toBe(report.ids[0])
    const show = (i: number) => run("show", report.ids[i], "--json").json()
    expect(show(0)).toMatchObject({ content: "Prefer vitest over jest here", confirmations: 2, source: "imported", origin: "import:in.jsonl" })
    expect(show(1)).toMatchObject({ origin: "claude-code:session/7" })
    expect(show(2)).toMatchObject({ scope: "global", project: null })
    expect(show(4)).toMatchObject({ category: "general", createdAt: "2024-03-01T12:00:00.000Z" })
  })
})

describe("export and replay", () => {
  it("replays an exported log into an empty store: same memories, counts and chain", () => {
    const source = join(tempDir(), "a.db")
    const run = memAt(source)
    const a = run("add", "use the staging db", "--global", "--json").json()
    const b = run("add", "never force-push main", "-p", "github.com/acme/app", "-t", "git", "--json").json()
    run("outcome", a.id, b.id, "worked", "--origin", "s1")
    run("outcome", a.id, "failed", "--origin", "s2")
    run("forget-conversation", "s2")
    run("supersede", a.id, b.id)
    const file = join(tempDir(), "log.jsonl")
    expect(run("export", file, "--json").json()).toMatchObject({ events: 6 })

    const target = memAt(join(tempDir(), "b.db"))
    expect(target("replay", file, "--json").json()).toEqual({ events: 6 })
    for (const id of [a.id, b.id]) expect(target("show", id, "--json").json()).toEqual(run("show", id, "--json").json())
    expect(target("list", "--all", "--json").json()).toEqual(run("list", "--all", "--json").json())
    expect(target("log", "--json").json()).toEqual(run("log", "--json").json())
    expect(target("conversations", "--json").json()).toEqual(run("conversations", "--json").json())
    expect(target("verify", "--json").json()).toMatchObject({ ok: true, events: 6 })
  })

  it("refuses to replay into a store that has events, and to overwrite an export", () => {
    const run = memAt(join(tempDir(), "a.db"))
    run("add", "x", "--global")
    const file = join(tempDir(), "log.jsonl")
    run("export", file)
    expect(run("export", file).stderr).toMatch(/exists; pass --force/)
    const again = run("replay", file, "--json")
    expect(again.code).toBe(1)
    expect(JSON.parse(again.stderr).error).toBe("ReplayTargetNotEmpty")
  })

  it("rejects an edited export", () => {
    const run = memAt(join(tempDir(), "a.db"))
    run("add", "the original words", "--global")
    const file = join(tempDir(), "log.jsonl")
    run("export", file)
    writeFileSync(file, readFileSync(file, "utf8").replace("original", "forged"))
    const target = memAt(join(tempDir(), "b.db"))
    const result = target("replay", file)
    expect(result.code).toBe(1)
    // The payload no longer matches its own hash, which is checked as the line is read.
    expect(result.stderr).toMatch(/line 1: the payload does not match its payloadHash/)
    expect(eventsIn(target)).toBe(0)
  })
})

describe("verify", () => {
  it("detects an edited payload", async () => {
    const db = join(tempDir(), "a.db")
    const run = memAt(db)
    run("add", "keep this exact", "--global")
    expect(run("verify", "--json").json().ok).toBe(true)
    const Database = (await import("better-sqlite3")).default
    const raw = new Database(db)
    raw.exec("DROP TRIGGER events_append_only_update")
    raw.prepare("UPDATE events SET payload = replace(payload, 'exact', 'edited')").run()
    raw.close()
    const result = run("verify", "--json")
    expect(result.code).toBe(1)
    expect(result.json().chain).toMatchObject({ ok: false, brokenAt: 1 })
  })
})

describeEachStore((store) => {
  describe("purge", () => {
    it("erases every byte of a forgotten conversation's text from the store's files", async () => {
      const db = await store.fresh()
      const run = memAt(db)
      const marker = "zqxj-marker-7f3a9c"
      run("add", `keep: the build uses Node 20`, "--global")
      run("add", `secret: ${marker} is the staging password`, "--global", "--origin", "claude-code:session/leaky")
      run("add", `more ${marker} notes`, "-p", "github.com/acme/app", "-t", marker, "--origin", "claude-code:session/leaky")
      run("forget-conversation", "claude-code:session/leaky")
      // SQLite's file and its WAL; PostgreSQL's database files (where they are on this machine).
      const scan = async () =>
        store.name === "SQLite" ? [db, `${db}-wal`].filter(existsSync).some((f) => readFileSync(f).includes(marker)) : await databaseFilesHold(db, marker)
      expect(await scan()).toBe(true)
      // As of now, why names the forgotten conversation's memories, with their text, among those left out.
      const asOfNow = () => run("why", "notes", "--at", new Date(Date.now() + 60_000).toISOString(), "--json").stdout
      expect(asOfNow()).toContain(marker)

      // The hint runs what the dry run showed: the same store, the same options, plus --yes.
      expect(run("purge").stdout).toContain(`cannot be undone; run 'mem --db ${db} purge --yes'`)
      expect(run("purge", "--memories").stdout).toContain(`run 'mem --db ${db} purge --memories --yes'`)
      expect(await scan()).toBe(true)
      expect(run("purge", "--yes", "--json").json()).toMatchObject({ done: true, conversations: ["claude-code:session/leaky"], erasedEvents: 2 })
      expect(await scan()).toBe(false)
      // Nothing a past moment was read from kept the text: the answer, and the files after it, hold none.
      expect(asOfNow()).not.toContain(marker)
      expect(await scan()).toBe(false)
      expect(run("verify", "--json").json()).toMatchObject({ ok: true, events: 4 })
      expect(run("list", "--json").json()).toHaveLength(1)
      expect(run("forget-conversation", "claude-code:session/leaky", "--undo").stderr).toMatch(/was purged/)
    })
  })
})
