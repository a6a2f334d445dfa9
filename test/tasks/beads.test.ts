/**
 * Protects the Beads reader: it finds the nearest `.beads` above the working folder, reads the
 * issues file `bd` reads (never deletions or merge copies), maps every Beads status, and skips a
 * bad line with a count instead of failing.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { beadsStatus, readBeads } from "../../src/tasks/beads.js"
import { tempDir } from "../support/cli.js"
import { beadsProject } from "../support/task-files.js"

describe("finding the issues file", () => {
  it("walks up from a subfolder to the project's .beads", () => {
    const project = beadsProject([{ id: "bd-1", title: "Fix login", status: "open" }])
    const deep = join(project, "src", "auth")
    mkdirSync(deep, { recursive: true })
    expect(readBeads(deep).tasks.map((t) => t.ref)).toEqual(["beads:bd-1"])
  })

  it("stops at the nearest .beads, even an inner one", () => {
    const outer = beadsProject([{ id: "outer-1", title: "outer" }])
    const inner = beadsProject([{ id: "inner-1", title: "inner" }], "issues.jsonl", join(outer, "packages", "api"))
    expect(readBeads(inner).tasks.map((t) => t.ref)).toEqual(["beads:inner-1"])
  })

  it("finds nothing, and reports nothing, where there is no .beads", () => {
    expect(readBeads(tempDir())).toEqual({ tasks: [], skipped: [] })
  })

  it("reads issues.jsonl, not deletions.jsonl or a merge's beads.left.jsonl beside it", () => {
    const project = beadsProject([{ id: "bd-1", title: "real" }])
    beadsProject([{ id: "bd-1", ts: "2026-01-01T00:00:00Z", by: "me" }], "deletions.jsonl", project)
    beadsProject([{ id: "bd-9", title: "merge copy" }], "beads.left.jsonl", project)
    expect(readBeads(project).tasks.map((t) => [t.ref, t.title])).toEqual([["beads:bd-1", "real"]])
  })

  it("falls back to the legacy beads.jsonl", () => {
    const project = beadsProject([{ id: "bd-7", title: "old layout", status: "closed" }], "beads.jsonl")
    expect(readBeads(project).tasks).toMatchObject([{ ref: "beads:bd-7", status: "done", source: "beads" }])
  })
})

describe("reading issues", () => {
  it("takes title, status and updated_at from a real Beads line", () => {
    const line =
      '{"id":"bd-a1b2","title":"Issue bd-a1b2","description":"d","status":"in_progress","priority":1,"issue_type":"task","created_at":"2024-05-03T01:49:00.000Z","updated_at":"2024-05-03T02:01:32.000Z","dependencies":[{"issue_id":"bd-a1b2","depends_on_id":"bd-c3d4","type":"blocks"}]}'
    expect(readBeads(beadsProject([line])).tasks).toEqual([
      { ref: "beads:bd-a1b2", title: "Issue bd-a1b2", status: "in_progress", source: "beads", updatedAt: "2024-05-03T02:01:32.000Z" }
    ])
  })

  it("skips lines that are not issues, counts them with their line numbers, and keeps the rest", () => {
    const project = beadsProject([{ id: "bd-1", title: "good" }, "{not json", "[1,2]", '{"title":"no id"}', "", { id: "bd-2", title: "also good" }])
    const scan = readBeads(project)
    expect(scan.tasks.map((t) => t.ref)).toEqual(["beads:bd-1", "beads:bd-2"])
    expect(scan.skipped.map((s) => [s.at, s.reason])).toEqual([
      [2, "not JSON"],
      [3, "not a JSON object"],
      [4, "no issue id"]
    ])
    expect(scan.skipped.every((s) => s.source === "beads" && s.file.endsWith(join(".beads", "issues.jsonl")))).toBe(true)
  })

  it("keeps the most recently updated line of an issue written twice", () => {
    const project = beadsProject([
      { id: "bd-1", title: "v2", status: "closed", updated_at: "2026-02-02T00:00:00Z" },
      { id: "bd-1", title: "v1", status: "in_progress", updated_at: "2026-02-01T00:00:00Z" }
    ])
    expect(readBeads(project).tasks).toMatchObject([{ ref: "beads:bd-1", title: "v2", status: "done" }])
  })

  it("uses the id as the title when the title is missing, and the file's time when no time is given", () => {
    const [task] = readBeads(beadsProject([{ id: "bd-3" }])).tasks
    expect(task).toMatchObject({ title: "bd-3", status: "open" })
    expect(Date.now() - Date.parse(task!.updatedAt)).toBeLessThan(60_000)
  })
})

describe("Beads statuses", () => {
  it.each([
    ["open", "open"],
    ["in_progress", "in_progress"],
    ["blocked", "blocked"],
    ["closed", "done"],
    ["tombstone", "cancelled"],
    ["deferred", "open"],
    ["pinned", "open"],
    ["hooked", "open"],
    [undefined, "open"],
    ["some-future-status", "open"]
  ])("%s is %s", (beads, ours) => expect(beadsStatus(beads)).toBe(ours))
})
