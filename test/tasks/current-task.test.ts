/**
 * Protects `currentTask`: of every task in progress in either tracker, the one updated last;
 * and that its shortcut (stop at the first todo file older than the best so far) never changes
 * the answer from reading everything.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { currentTask, findTasks, latestInProgress } from "../../src/tasks/find-tasks.js"
import { tempDir } from "../support/cli.js"
import { beadsProject, claudeHome } from "../support/task-files.js"

describe("currentTask", () => {
  it("is the in-progress task updated last, across Beads and todos", () => {
    const project = beadsProject([
      { id: "bd-1", title: "older beads work", status: "in_progress", updated_at: "2026-03-01T09:00:00Z" },
      { id: "bd-2", title: "closed", status: "closed", updated_at: "2026-03-01T12:00:00Z" }
    ])
    const h = claudeHome()
    h.todos("s1", [{ content: "newer todo work", status: "in_progress" }], "2026-03-01T10:00:00Z")
    h.todos("s0", [{ content: "abandoned", status: "in_progress" }], "2026-02-01T10:00:00Z")
    expect(currentTask({ cwd: project, env: h.env })?.ref).toBe("todo:s1:1")
    expect(currentTask({ cwd: project, env: claudeHome().env })?.ref).toBe("beads:bd-1")
  })

  it("is undefined when nothing is in progress", () => {
    const project = beadsProject([{ id: "bd-1", status: "open" }, { id: "bd-2", status: "blocked" }])
    expect(currentTask({ cwd: project, env: { HOME: tempDir() } })).toBeUndefined()
  })

  it("breaks a tie by the smaller ref, whatever the order found", () => {
    const a = { ref: "todo:a:1", title: "a", status: "in_progress", source: "todo", updatedAt: "2026-01-01T00:00:00.000Z" } as const
    const b = { ...a, ref: "todo:b:1" } as const
    expect(latestInProgress([a as never, b as never])?.ref).toBe("todo:a:1")
    expect(latestInProgress([b as never, a as never])?.ref).toBe("todo:a:1")
  })
})

describe("the shortcut", () => {
  const minute = 60_000
  const start = Date.parse("2026-01-01T00:00:00Z")
  const todoFile = fc.record({
    minutes: fc.integer({ min: 0, max: 30 }),
    statuses: fc.array(fc.constantFrom("pending", "in_progress", "completed"), { maxLength: 3 })
  })
  const issue = fc.record({ minutes: fc.integer({ min: 0, max: 30 }), status: fc.constantFrom("open", "in_progress", "closed") })

  it("answers as reading every task would", () => {
    fc.assert(
      fc.property(fc.array(todoFile, { maxLength: 6 }), fc.array(issue, { maxLength: 4 }), (files, issues) => {
        const h = claudeHome()
        files.forEach((f, i) =>
          h.todos(`list-${i}`, f.statuses.map((status, j) => ({ content: `todo ${i}.${j}`, status })), new Date(start + f.minutes * minute).toISOString())
        )
        const project = beadsProject(issues.map((it, i) => ({ id: `bd-${i}`, status: it.status, updated_at: new Date(start + it.minutes * minute).toISOString() })))
        const place = { cwd: project, env: h.env }
        expect(currentTask(place)?.ref).toBe(latestInProgress(findTasks(place).tasks)?.ref)
      }),
      { numRuns: 40 }
    )
  })
})
