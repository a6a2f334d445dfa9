/**
 * The task commands as real processes, the way an agent's hook runs them: search links what it
 * shows to the task in progress where it runs; `mem tasks` lists; `mem tasks sync` records each
 * finished task's outcome once, even when several processes sync the same store at the same time.
 */
import { join } from "node:path"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { memStarted } from "../support/cli-async.js"
import { mem, tempDir } from "../support/cli.js"
import { actor, Commands, freshDb, Retrieval, runAt, T0 } from "../support/services.js"
import { beadsProject, claudeHome } from "../support/task-files.js"
import { untilWaitingForLock } from "../support/waiting.js"

/** A project and an empty home: nothing of this machine's own ~/.claude leaks in. */
const workspace = () => {
  const project = tempDir("memledger-project-")
  const home = claudeHome()
  const db = join(tempDir(), "m.db")
  const env = { HOME: home.home, CLAUDE_CODE_TODOS_DIR: "", CLAUDE_CODE_TASK_LIST_ID: "", CLAUDE_CONFIG_DIR: "" }
  const run = (...args: string[]) => mem(["--db", db, ...args], { cwd: project, env })
  return { project, home, db, env, run }
}

/** The task of each recall, oldest first (the log lists the newest first). */
const recalls = (run: (...args: string[]) => ReturnType<typeof mem>) =>
  (run("log", "--json").json() as { type: string; payload: { task?: string } }[])
    .filter((e) => e.type === "MemoriesRecalled")
    .map((e) => e.payload.task ?? null)
    .reverse()

describe("automatic linking", () => {
  it("links a search to the task in progress, unless --task names another or none", () => {
    const w = workspace()
    beadsProject([{ id: "bd-1", title: "Fix login", status: "in_progress" }], "issues.jsonl", w.project)
    w.run("add", "Login tokens expire after 15 minutes", "--global")
    expect(w.run("search", "login tokens", "--json").code).toBe(0)
    w.run("search", "login tokens", "--task", "JIRA-7")
    w.run("search", "login tokens", "--task", "")
    expect(recalls(w.run)).toEqual(["beads:bd-1", "JIRA-7", null])
  })

  it("links context too, to a Claude Code todo newer than the Beads issue", () => {
    const w = workspace()
    beadsProject([{ id: "bd-1", status: "in_progress", updated_at: "2026-01-01T00:00:00Z" }], "issues.jsonl", w.project)
    w.home.todos("session-1", [{ content: "Write the test", status: "completed" }, { content: "Make it pass", status: "in_progress" }], "2026-01-02T00:00:00Z")
    w.run("add", "Run the suite with npm test", "--global")
    expect(w.run("context", "--query", "suite", "--json").code).toBe(0)
    expect(recalls(w.run)).toEqual(["todo:session-1:2"])
  })

  it("records no task where none is in progress", () => {
    const w = workspace()
    w.run("add", "Login tokens expire after 15 minutes", "--global")
    w.run("search", "login")
    expect(recalls(w.run)).toEqual([null])
  })
})

describe("mem tasks and mem tasks sync", () => {
  it("lists the tasks with their linked memories, then records the finished one's outcome once", () => {
    const w = workspace()
    const issues = (status: string) => beadsProject([{ id: "bd-1", title: "Fix login", status }, { id: "bd-2", title: "Later", status: "open" }, "oops"], "issues.jsonl", w.project)
    issues("in_progress")
    const { id } = w.run("add", "Login tokens expire after 15 minutes", "--global", "--json").json()
    w.run("search", "login")

    const listed = w.run("tasks", "--json")
    expect(listed.code).toBe(0)
    expect(listed.json()).toMatchObject({
      current: "beads:bd-1",
      tasks: expect.arrayContaining([
        expect.objectContaining({ ref: "beads:bd-1", status: "in_progress", source: "beads", linked: 1, recorded: null }),
        expect.objectContaining({ ref: "beads:bd-2", status: "open", linked: 0 })
      ]),
      skipped: [expect.objectContaining({ source: "beads", at: 3, reason: "not JSON" })]
    })
    expect(w.run("tasks").stdout).toMatch(/^\* in_progress beads:bd-1 +1 memory +Fix login$/m)

    issues("closed")
    const synced = w.run("tasks", "sync", "--json")
    expect(synced.code).toBe(0)
    expect(synced.json().recorded).toEqual([{ ref: "beads:bd-1", title: "Fix login", status: "done", source: "beads", outcome: "worked", memoryIds: [id] }])
    expect(w.run("tasks", "sync").stdout).toContain("1 finished task already recorded before")
    expect(w.run("show", id, "--json").json().evidence).toMatchObject({ workedCount: 1 })
    const outcomes = (w.run("log", "--json").json() as { type: string; origin: string }[]).filter((e) => e.type === "OutcomeRecorded")
    expect(outcomes).toMatchObject([{ origin: "tasks-sync" }])
  })

  it("records a cancelled task as failed only with --cancelled-fails", () => {
    const w = workspace()
    beadsProject([{ id: "bd-3", title: "Dropped", status: "tombstone" }], "issues.jsonl", w.project)
    w.run("add", "Login tokens expire after 15 minutes", "--global")
    w.run("search", "login", "--task", "beads:bd-3")
    expect(w.run("tasks", "sync").stdout.trim()).toBe("no finished task to record")
    expect(w.run("tasks", "sync", "--cancelled-fails", "--json").json().recorded).toMatchObject([{ ref: "beads:bd-3", outcome: "failed" }])
  })
})

describe("concurrent syncs", () => {
  const TASKS = 20
  const PROCESSES = 3

  it(`${PROCESSES} processes syncing ${TASKS} finished tasks at once record each outcome exactly once`, async () => {
    const w = workspace()
    const db = freshDb()
    await runAt(
      db,
      T0,
      Effect.gen(function* () {
        const c = yield* Commands
        const r = yield* Retrieval
        for (let i = 0; i < TASKS; i++) {
          yield* c.add({ content: `Step ${i} of the release: check artefact ${i}`, scope: "global", project: null }, actor)
          yield* r.search({ query: `artefact ${i}`, project: null, limit: 1, task: `beads:bd-${i}` }, actor)
        }
      })
    )
    beadsProject(Array.from({ length: TASKS }, (_, i) => ({ id: `bd-${i}`, title: `Release step ${i}`, status: "closed" })), "issues.jsonl", w.project)

    // The test holds the write lock until every process waits for it, so they all reach sync
    // before any can write: the race is certain, not left to start-up timing. Each must then
    // wait its turn (busy_timeout) and, inside the lock, see what the ones before it recorded.
    const holder = new Database(db)
    holder.exec("BEGIN IMMEDIATE")
    const running = Array.from({ length: PROCESSES }, () => memStarted(["--db", db, "tasks", "sync", "--json"], { cwd: w.project, env: w.env }))
    for (const run of running) await untilWaitingForLock(run)
    holder.exec("ROLLBACK")
    holder.close()
    const runs = await Promise.all(running.map((run) => run.result))
    for (const r of runs) expect(r.code, r.stderr).toBe(0)
    const reports = runs.map((r) => JSON.parse(r.stdout) as { recorded: { ref: string }[]; alreadyRecorded: { ref: string }[] })
    const recorded = reports.flatMap((r) => r.recorded.map((t) => t.ref))
    expect(recorded.sort()).toEqual(Array.from({ length: TASKS }, (_, i) => `beads:bd-${i}`).sort())
    // Each process saw every task: it recorded it, or found it recorded by another.
    for (const r of reports) expect(r.recorded.length + r.alreadyRecorded.length).toBe(TASKS)

    const events = mem(["--db", db, "log", "--limit", "1000", "--json"]).json() as { type: string; payload: { task?: string } }[]
    const outcomeTasks = events.filter((e) => e.type === "OutcomeRecorded").map((e) => e.payload.task)
    expect(outcomeTasks).toHaveLength(TASKS)
    expect(new Set(outcomeTasks).size).toBe(TASKS)
    expect(mem(["--db", db, "verify", "--json"]).json()).toMatchObject({ ok: true })
  }, 120_000)
})
