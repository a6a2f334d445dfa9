/**
 * The CLI as a real process: the add/show/list/edit/outcome/forget round trips a person and a
 * hook rely on, with --json parsed as exactly one value.
 */
import { execFileSync } from "node:child_process"
import { statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"

describe("mem add, show, list", () => {
  it("stores a memory and shows it back by an 8-character prefix", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const added = run("add", "Run npm test before pushing.", "-c", "convention", "-p", "github.com/acme/app", "-t", "testing", "--json")
    expect(added.code).toBe(0)
    const { id, stored } = added.json()
    expect(stored).toBe(true)
    const shown = run("show", id.slice(0, 12), "--json").json()
    expect(shown).toMatchObject({
      id,
      content: "Run npm test before pushing.",
      category: "convention",
      scope: "project",
      project: "github.com/acme/app",
      tags: ["testing"],
      status: "confirmed",
      confirmations: 1,
      evidence: null
    })
  })

  it("confirms an exact restatement instead of storing a copy", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const first = run("add", "Use pnpm, not npm.", "--global", "--json").json()
    const again = run("add", "  use PNPM,   not npm ", "--global", "--json").json()
    expect(again).toEqual({ id: first.id, shortId: first.shortId, stored: false, confirmed: true, confirmations: 2 })
    expect(run("list", "--json").json()).toHaveLength(1)
  })

  it("takes long and short option forms alike", () => {
    const run = memAt(join(tempDir(), "m.db"))
    run("add", "a", "--category", "gotcha", "--project", "p1", "--tag", "x")
    run("add", "b", "-c", "gotcha", "-p", "p1", "-t", "y")
    run("add", "c", "-c", "command", "-p", "p2")
    const long = run("list", "--project", "p1", "--category", "gotcha", "--limit", "5", "--json").json()
    const short = run("list", "-p", "p1", "-c", "gotcha", "-l", "5", "--json").json()
    expect(long.map((m: { content: string }) => m.content).sort()).toEqual(["a", "b"])
    expect(short).toEqual(long)
  })

  it("defaults the project to the working folder's normalised git remote", () => {
    const repo = tempDir("memledger-repo-")
    execFileSync("git", ["init", "-q"], { cwd: repo })
    execFileSync("git", ["remote", "add", "origin", "git@github.com:Acme/App.git"], { cwd: repo })
    const db = join(tempDir(), "m.db")
    const added = mem(["--db", db, "add", "the build needs Node 20", "--json"], { cwd: repo }).json()
    expect(mem(["--db", db, "show", added.id, "--json"]).json().project).toBe("github.com/Acme/App")
  })

  it("edits, forgets and restores, and lists forgotten ones only with --all", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const { id } = run("add", "old text", "--global", "--json").json()
    expect(run("edit", id, "--content", "new text", "-t", "a", "-t", "b", "--json").json()).toEqual({ id, changed: true })
    expect(run("show", id, "--json").json()).toMatchObject({ content: "new text", tags: ["a", "b"] })
    expect(run("forget", id, "--json").json()).toMatchObject({ id, forgotten: true, changed: true })
    expect(run("list", "--json").json()).toHaveLength(0)
    expect(run("list", "--all", "--json").json()).toHaveLength(1)
    expect(run("restore", id, "--json").json()).toMatchObject({ id, forgotten: false, changed: true })
    expect(run("list", "--json").json()).toHaveLength(1)
  })

  it("supersedes an old memory by a new one", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const old = run("add", "deploy with make deploy", "--global", "--json").json()
    const next = run("add", "deploy with just deploy", "--global", "--supersedes", old.id, "--json").json()
    expect(run("show", old.id, "--json").json().supersededBy).toBe(next.id)
    expect(run("list", "--json").json().map((m: { id: string }) => m.id)).toEqual([next.id])
  })

  it("creates the store file readable by its owner only", () => {
    const dir = join(tempDir(), "nested")
    const db = join(dir, "m.db")
    memAt(db)("add", "x", "--global")
    expect(statSync(db).mode & 0o777).toBe(0o600)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
  })
})

describe("mem outcome and forget-conversation", () => {
  it("records outcomes, and forgetting a conversation withdraws exactly its outcomes until --undo", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const { id } = run("add", "use the staging db for migrations", "--global", "--json").json()
    run("outcome", id, "worked", "--origin", "claude-code:session/a")
    run("outcome", id, "failed", "--origin", "claude-code:session/b", "--task", "T-1")
    const evidence = () => run("show", id, "--json").json().evidence
    expect(evidence()).toMatchObject({ workedCount: 1, failedCount: 1 })

    expect(run("forget-conversation", "claude-code:session/b", "--json").json()).toMatchObject({ forgotten: true, changed: true })
    expect(evidence()).toMatchObject({ workedCount: 1, failedCount: 0 })
    const conversations = run("conversations", "--json").json()
    expect(conversations.find((c: { origin: string }) => c.origin === "claude-code:session/b").forgotten).toBe(true)

    run("forget-conversation", "claude-code:session/b", "--undo")
    expect(evidence()).toMatchObject({ workedCount: 1, failedCount: 1 })
  })

  it("forgetting the conversation that added a memory makes the memory disappear", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const { id } = run("add", "secret plan", "--global", "--origin", "codex:thread/9", "--json").json()
    run("forget-conversation", "codex:thread/9")
    expect(run("show", id).code).toBe(1)
    run("forget-conversation", "codex:thread/9", "--undo")
    expect(run("show", id, "--json").json().content).toBe("secret plan")
  })

  it("shows the log, filtered by memory and origin", () => {
    const run = memAt(join(tempDir(), "m.db"))
    const a = run("add", "a", "--global", "--json").json()
    run("add", "b", "--global", "--origin", "other")
    run("outcome", a.id, "partial")
    const all = run("log", "--json").json()
    expect(all.map((e: { seq: number }) => e.seq)).toEqual([3, 2, 1])
    expect(run("log", "--memory", a.id, "--json").json().map((e: { type: string }) => e.type)).toEqual(["OutcomeRecorded", "MemoryAdded"])
    expect(run("log", "--origin", "other", "--json").json()).toHaveLength(1)
    expect(run("log", "--since", "2", "--json").json().map((e: { seq: number }) => e.seq)).toEqual([3])
    expect(all[0].payload).toMatchObject({ outcome: "partial", memoryIds: [a.id] })
  })
})
