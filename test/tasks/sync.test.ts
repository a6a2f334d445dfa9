/**
 * Protects `Tasks.sync` and `Tasks.list` over every store and real tracker files: a finished
 * task's recalled memories get one outcome, counted in their evidence, and running sync again
 * records nothing more, because the log already says so.
 */
import Database from "better-sqlite3"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { SyncOptions } from "../../src/services/tasks.js"
import type { TaskPlace } from "../../src/tasks/task.js"
import { tempDir } from "../support/cli.js"
import { actor, Commands, describeEachStore, Queries, Retrieval, runAt, T0, Tasks, type ServiceStore } from "../support/services.js"
import { beadsProject, type BeadsIssue } from "../support/task-files.js"

const MINUTE = 60_000

/** A store with three memories about logins, and a project whose Beads file a test rewrites. */
const setUp = async (store: ServiceStore) => {
  const db = await store.fresh()
  const ids = await runAt(
    db,
    T0,
    Effect.gen(function* () {
      const c = yield* Commands
      const a = yield* c.add({ content: "Login tokens expire after 15 minutes", scope: "global", project: null }, actor)
      const b = yield* c.add({ content: "The login form posts to /api/session", scope: "global", project: null }, actor)
      const u = yield* c.add({ content: "Unrelated: the CDN caches images for a day", scope: "global", project: null }, actor)
      return { a: a.id, b: b.id, unrelated: u.id }
    })
  )
  const project = tempDir("memledger-project-")
  const place: TaskPlace = { cwd: project, env: { HOME: tempDir() } }
  const issues = (...list: Array<BeadsIssue | string>) => beadsProject(list, "issues.jsonl", project)
  const recall = (query: string, task: string, origin = actor.origin) =>
    runAt(db, T0 + MINUTE, Effect.flatMap(Retrieval, (r) => r.search({ query, project: null, task }, { origin, agent: "test" })))
  const sync = (options: SyncOptions = { cancelledFails: false }, at = T0 + 2 * MINUTE) =>
    runAt(db, at, Effect.flatMap(Tasks, (t) => t.sync(place, options, { origin: "tasks-sync", agent: "test" })))
  const list = () => runAt(db, T0 + 3 * MINUTE, Effect.flatMap(Tasks, (t) => t.list(place)))
  const outcomes = () =>
    runAt(db, T0 + 3 * MINUTE, Effect.flatMap(Queries, (q) => q.log({}))).then((events) => events.filter((e) => e.type === "OutcomeRecorded").map((e) => e.event))
  const evidence = (id: string) => runAt(db, T0 + 3 * MINUTE, Effect.flatMap(Queries, (q) => q.show(id))).then((v) => v.evidence)
  return { db, ids, place, issues, recall, sync, list, outcomes, evidence }
}

describeEachStore((store) => {
  describe("sync", () => {
    it("gives worked to the memories recalled under a task once it is done, and only once", async () => {
      const s = await setUp(store)
      s.issues({ id: "bd-1", title: "Fix login", status: "in_progress" })
      await s.recall("login", "beads:bd-1")
      expect((await s.sync()).recorded).toEqual([])

      s.issues({ id: "bd-1", title: "Fix login", status: "closed" })
      const first = await s.sync()
      expect(first.recorded).toEqual([
        { ref: "beads:bd-1", title: "Fix login", status: "done", source: "beads", outcome: "worked", memoryIds: expect.arrayContaining([s.ids.a, s.ids.b]) }
      ])
      expect(first.recorded[0]!.memoryIds).toHaveLength(2)
      expect(await s.evidence(s.ids.a)).toMatchObject({ workedCount: 1, failedCount: 0 })
      expect(await s.evidence(s.ids.unrelated)).toBeUndefined()

      const again = await s.sync({ cancelledFails: false }, T0 + 10 * MINUTE)
      expect(again.recorded).toEqual([])
      expect(again.alreadyRecorded).toMatchObject([{ ref: "beads:bd-1", outcome: "worked" }])
      expect(await s.outcomes()).toEqual([
        { _tag: "OutcomeRecorded", memoryIds: first.recorded[0]!.memoryIds, outcome: "worked", task: "beads:bd-1", note: "done: Fix login" }
      ])
    })

    it("gives partial for a blocked task, and failed for a cancelled one only with cancelledFails", async () => {
      const s = await setUp(store)
      s.issues({ id: "bd-2", title: "Blocked", status: "blocked" }, { id: "bd-3", title: "Dropped", status: "tombstone" })
      await s.recall("tokens", "beads:bd-2")
      await s.recall("form", "beads:bd-3")
      const plain = await s.sync()
      expect(plain.recorded.map((r) => [r.ref, r.outcome])).toEqual([["beads:bd-2", "partial"]])
      const withFailures = await s.sync({ cancelledFails: true })
      expect(withFailures.recorded.map((r) => [r.ref, r.outcome, r.memoryIds])).toEqual([["beads:bd-3", "failed", [s.ids.b]]])
      expect(withFailures.alreadyRecorded.map((r) => r.ref)).toEqual(["beads:bd-2"])
      expect(await s.evidence(s.ids.a)).toMatchObject({ partialCount: 1 })
      expect(await s.evidence(s.ids.b)).toMatchObject({ failedCount: 1 })
    })

    it("counts an outcome recorded by hand with the task, and records none of its own", async () => {
      const s = await setUp(store)
      s.issues({ id: "bd-4", title: "Done by hand", status: "closed" })
      await s.recall("login", "beads:bd-4")
      await runAt(s.db, T0 + MINUTE, Effect.flatMap(Commands, (c) => c.outcome([s.ids.a], "partial", { task: "beads:bd-4" }, actor)))
      const report = await s.sync()
      expect(report.recorded).toEqual([])
      expect(report.alreadyRecorded).toMatchObject([{ ref: "beads:bd-4", outcome: "partial" }])
    })

    it("links nothing through a forgotten conversation, yet never records again an outcome whose conversation was forgotten", async () => {
      const s = await setUp(store)
      s.issues({ id: "bd-5", title: "From a forgotten session", status: "closed" }, { id: "bd-6", title: "Synced, then withdrawn", status: "closed" })
      await s.recall("login", "beads:bd-5", "claude-code:session/forgotten")
      await s.recall("login", "beads:bd-6")
      await runAt(s.db, T0 + MINUTE, Effect.flatMap(Commands, (c) => c.forgetConversation("claude-code:session/forgotten", false, actor)))
      const first = await s.sync()
      expect(first.withoutMemories.map((t) => t.ref)).toEqual(["beads:bd-5"])
      expect(first.recorded.map((t) => t.ref)).toEqual(["beads:bd-6"])

      await runAt(s.db, T0 + 3 * MINUTE, Effect.flatMap(Commands, (c) => c.forgetConversation("tasks-sync", false, actor)))
      const afterForget = await s.sync({ cancelledFails: false }, T0 + 4 * MINUTE)
      expect(afterForget.recorded).toEqual([])
      expect((await s.evidence(s.ids.a))?.workedCount ?? 0).toBe(0)
    })

    it("leaves out memories forgotten since they were recalled", async () => {
      const s = await setUp(store)
      s.issues({ id: "bd-7", title: "Fix login", status: "closed" })
      await s.recall("login", "beads:bd-7")
      await runAt(s.db, T0 + MINUTE, Effect.flatMap(Commands, (c) => c.forget(s.ids.a, "wrong", actor)))
      expect((await s.sync()).recorded).toMatchObject([{ memoryIds: [s.ids.b] }])
    })

    // Holds SQLite's write lock from another connection, below the port; waiting on PostgreSQL's
    // advisory lock would block this thread (sync-client.ts), so there it is not tried.
    it.skipIf(store.name !== "SQLite")("takes no write lock when no task is finished, so a busy store does not hold it up", async () => {
      const s = await setUp(store)
      s.issues({ id: "bd-8", title: "Open", status: "open" }, { id: "bd-9", title: "Working", status: "in_progress" })
      const other = new Database(s.db)
      other.exec("BEGIN IMMEDIATE")
      try {
        const started = Date.now()
        expect(await s.sync()).toEqual({ recorded: [], alreadyRecorded: [], withoutMemories: [], skipped: [] })
        // busy_timeout is 15 s: a sync that asked for the lock would still be waiting.
        expect(Date.now() - started).toBeLessThan(5_000)
      } finally {
        other.exec("ROLLBACK")
        other.close()
      }
    })
  })

  describe("list", () => {
    it("shows each task with its live linked memories, its recorded outcome, and the current task", async () => {
      const s = await setUp(store)
      s.issues(
        { id: "bd-1", title: "Working on it", status: "in_progress", updated_at: "2026-01-02T00:00:00Z" },
        { id: "bd-2", title: "Done", status: "closed", updated_at: "2026-01-01T00:00:00Z" },
        "not an issue"
      )
      await s.recall("login", "beads:bd-1")
      await s.recall("tokens", "beads:bd-2")
      await s.sync()
      const listing = await s.list()
      expect(listing.current).toBe("beads:bd-1")
      expect(listing.tasks.map((t) => [t.ref, t.status, t.linked, t.recorded])).toEqual([
        ["beads:bd-1", "in_progress", 2, null],
        ["beads:bd-2", "done", 1, "worked"]
      ])
      expect(listing.skipped).toMatchObject([{ source: "beads", at: 3, reason: "not JSON" }])
    })
  })
})
