/**
 * Protects the Claude Code reader: both layouts (todos arrays, task-list folders), the folders
 * the environment chooses, the list filter, the status mapping, and that a bad file or item is
 * skipped with a count instead of failing.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { claudeStatus, readClaudeTodos } from "../../src/tasks/claude-todos.js"
import { tempDir } from "../support/cli.js"
import { claudeHome } from "../support/task-files.js"

const SESSION = "4f6a2c1e-0b7d-4c1e-9a55-3d2b1f0e9c11"
const LIST = `${SESSION}-agent-${SESSION}`

describe("todos (TodoWrite)", () => {
  it("reads each item of a list, named by its position when it has no id", () => {
    const h = claudeHome()
    h.todos(LIST, [
      { content: "Read the failing test", status: "completed", activeForm: "Reading the failing test" },
      { content: "Fix the token refresh", status: "in_progress", activeForm: "Fixing the token refresh" },
      { content: "Run the suite", status: "pending", activeForm: "Running the suite" }
    ], "2026-03-01T10:00:00Z")
    expect(readClaudeTodos(h.env)).toEqual({
      tasks: [
        { ref: `todo:${LIST}:1`, title: "Read the failing test", status: "done", source: "todo", updatedAt: "2026-03-01T10:00:00.000Z" },
        { ref: `todo:${LIST}:2`, title: "Fix the token refresh", status: "in_progress", source: "todo", updatedAt: "2026-03-01T10:00:00.000Z" },
        { ref: `todo:${LIST}:3`, title: "Run the suite", status: "open", source: "todo", updatedAt: "2026-03-01T10:00:00.000Z" }
      ],
      skipped: []
    })
  })

  it("uses an item's id when the older format gives one", () => {
    const h = claudeHome()
    h.todos("s1", [{ id: "7", content: "a", status: "pending" }, { id: 8, content: "b", status: "pending" }])
    expect(readClaudeTodos(h.env).tasks.map((t) => t.ref)).toEqual(["todo:s1:7", "todo:s1:8"])
  })

  it("reads the folder CLAUDE_CODE_TODOS_DIR names instead of ~/.claude/todos", () => {
    const h = claudeHome()
    h.todos("ignored", [{ content: "in home", status: "pending" }])
    const elsewhere = claudeHome()
    elsewhere.todos("used", [{ content: "elsewhere", status: "pending" }])
    const tasks = readClaudeTodos({ ...h.env, CLAUDE_CODE_TODOS_DIR: join(elsewhere.home, ".claude", "todos") }).tasks
    expect(tasks.map((t) => t.title)).toEqual(["elsewhere"])
  })

  it("skips a file that is not JSON or not an array, and an item without content, and counts each", () => {
    const h = claudeHome()
    h.todos("broken", "{ truncated")
    h.todos("object", '{"content":"not in an array"}')
    h.todos("empty", "")
    h.todos("mixed", [{ content: "kept", status: "pending" }, { status: "pending" } as never, "text" as never])
    const scan = readClaudeTodos(h.env)
    expect(scan.tasks.map((t) => t.ref)).toEqual(["todo:mixed:1"])
    expect(scan.skipped.map((s) => [s.file.split("/").pop(), s.at, s.reason]).sort()).toEqual([
      ["broken.json", undefined, "not JSON"],
      ["mixed.json", 2, "no content"],
      ["mixed.json", 3, "not a JSON object"],
      ["object.json", undefined, "not a JSON array of todos"]
    ])
  })

  it("finds nothing in a home without .claude", () => {
    expect(readClaudeTodos({ HOME: tempDir() })).toEqual({ tasks: [], skipped: [] })
  })
})

describe("task lists (the Task tools)", () => {
  it("reads one task per file, the folder being the list", () => {
    const h = claudeHome()
    h.taskListEntry("my-project", { id: "1", subject: "Add the migration", description: "d", activeForm: "Adding", status: "completed", blocks: [], blockedBy: [] })
    h.taskListEntry("my-project", { id: "2", subject: "Backfill", description: "", activeForm: "Backfilling", status: "deleted", blocks: [], blockedBy: ["1"] })
    h.taskListEntry("my-project", "not json", undefined, "3")
    const scan = readClaudeTodos(h.env)
    expect(scan.tasks.map((t) => [t.ref, t.title, t.status]).sort()).toEqual([
      ["todo:my-project:1", "Add the migration", "done"],
      ["todo:my-project:2", "Backfill", "cancelled"]
    ])
    expect(scan.skipped).toMatchObject([{ source: "todo", reason: "not JSON" }])
  })

  it("finds ~/.claude under CLAUDE_CONFIG_DIR when it is set", () => {
    const h = claudeHome()
    h.taskListEntry("work", { id: "1", subject: "From the config dir", status: "pending" })
    expect(readClaudeTodos({ HOME: tempDir(), CLAUDE_CONFIG_DIR: join(h.home, ".claude") }).tasks.map((t) => t.title)).toEqual(["From the config dir"])
  })
})

describe("CLAUDE_CODE_TASK_LIST_ID", () => {
  it("keeps only that list: the task-list folder of that name and the todo files of that session", () => {
    const h = claudeHome()
    h.todos(LIST, [{ content: "this session", status: "pending" }])
    h.todos("other-session-agent-other-session", [{ content: "another session", status: "pending" }])
    h.taskListEntry(SESSION, { id: "1", subject: "this list", status: "pending" })
    h.taskListEntry("other-list", { id: "1", subject: "another list", status: "pending" })
    const titles = readClaudeTodos({ ...h.env, CLAUDE_CODE_TASK_LIST_ID: SESSION }).tasks.map((t) => t.title).sort()
    expect(titles).toEqual(["this list", "this session"])
  })
})

describe("Claude Code statuses", () => {
  it.each([
    ["pending", "open"],
    ["in_progress", "in_progress"],
    ["completed", "done"],
    ["deleted", "cancelled"],
    ["blocked", "open"],
    [undefined, "open"]
  ])("%s is %s", (claude, ours) => expect(claudeStatus(claude)).toBe(ours))
})
