/**
 * Claude Code's task lists, in both layouts it has written:
 * - todos (the TodoWrite tool): `~/.claude/todos/<session>-agent-<agent>.json`, one JSON array of
 *   `{ content, status, activeForm }` per file (older versions add `id` and `priority`). The list
 *   is the file name; a task is its `id`, else its 1-based position in the array. A position
 *   shifts if the agent inserts a task above it, so a link made under one position can end up
 *   on another task: that is the format's limit, and why `id` wins when present.
 * - task lists (the Task tools): `~/.claude/tasks/<list>/<id>.json`, one
 *   `{ id, subject, description, status, blocks, blockedBy }` per file; the list is the folder.
 * `CLAUDE_CODE_TODOS_DIR` moves the todos folder; `CLAUDE_CONFIG_DIR` moves `~/.claude`.
 * `CLAUDE_CODE_TASK_LIST_ID` keeps only that list: the task-list folder of that name, and the
 * todo files whose name contains it (a session id selects that session's files).
 * Neither layout records when a task changed, so a task's time is its file's modification time.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { homedir } from "node:os"
import { basename, join } from "node:path"
import { isRecord, nonEmptyString, todoRef, type SkippedInput, type Task, type TaskPlace, type TaskScan, type TaskStatus } from "./task.js"

export interface TodoFile {
  readonly path: string
  readonly list: string
  readonly layout: "todos" | "task-list"
  readonly modifiedMs: number
}

/** Every todo file the environment points at, newest first, without reading them. */
export const listTodoFiles = (env: TaskPlace["env"]): TodoFile[] => {
  const only = nonEmptyString(env.CLAUDE_CODE_TASK_LIST_ID)
  const todos = jsonFiles(todosFolder(env))
    .filter((path) => only === undefined || basename(path).includes(only))
    .map((path) => todoFile(path, basename(path, ".json"), "todos"))
  const taskLists = subfolders(join(claudeFolder(env), "tasks"))
    .filter((folder) => only === undefined || basename(folder) === only)
    .flatMap((folder) => jsonFiles(folder).map((path) => todoFile(path, basename(folder), "task-list")))
  return [...todos, ...taskLists].filter((f): f is TodoFile => f !== undefined).sort((a, b) => b.modifiedMs - a.modifiedMs)
}

export const readTodoFile = (file: TodoFile): TaskScan => {
  const updatedAt = new Date(file.modifiedMs).toISOString()
  const skip = (reason: string, at?: number): TaskScan => ({
    tasks: [],
    skipped: [{ source: "todo", file: file.path, reason, ...(at === undefined ? {} : { at }) }]
  })
  let text: string
  try {
    text = readFileSync(file.path, "utf8")
  } catch (error) {
    return skip(`cannot read it: ${(error as Error).message}`)
  }
  // Claude Code may leave an empty file for a list with nothing in it: no tasks, not damage.
  if (text.trim().length === 0) return { tasks: [], skipped: [] }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return skip("not JSON")
  }
  if (file.layout === "task-list") {
    const task = taskListEntry(value, file, updatedAt)
    return typeof task === "string" ? skip(task) : { tasks: [task], skipped: [] }
  }
  if (!Array.isArray(value)) return skip("not a JSON array of todos")
  const tasks: Task[] = []
  const skipped: SkippedInput[] = []
  value.forEach((item: unknown, index) => {
    const task = todoEntry(item, index + 1, file, updatedAt)
    if (typeof task === "string") skipped.push({ source: "todo", file: file.path, at: index + 1, reason: task })
    else tasks.push(task)
  })
  return { tasks, skipped }
}

export const readClaudeTodos = (env: TaskPlace["env"]): TaskScan => {
  const scans = listTodoFiles(env).map(readTodoFile)
  return { tasks: scans.flatMap((s) => s.tasks), skipped: scans.flatMap((s) => s.skipped) }
}

/**
 * Claude Code statuses onto ours: `pending` is `open`, `in_progress` the same word, `completed`
 * is `done`, and `deleted` (task lists only) is `cancelled`. Neither layout has "blocked": a task
 * waiting on `blockedBy` is still `pending`, not stuck after work began, so it stays `open`.
 * A status this code does not know is `open`, so it never causes an outcome.
 */
export const claudeStatus = (status: unknown): TaskStatus => {
  switch (status) {
    case "in_progress":
      return "in_progress"
    case "completed":
      return "done"
    case "deleted":
      return "cancelled"
    default:
      return "open"
  }
}

const claudeFolder = (env: TaskPlace["env"]): string =>
  nonEmptyString(env.CLAUDE_CONFIG_DIR) ?? join(nonEmptyString(env.HOME) ?? homedir(), ".claude")

const todosFolder = (env: TaskPlace["env"]): string => nonEmptyString(env.CLAUDE_CODE_TODOS_DIR) ?? join(claudeFolder(env), "todos")

const todoEntry = (item: unknown, position: number, file: TodoFile, updatedAt: string): Task | string => {
  if (!isRecord(item)) return "not a JSON object"
  const title = nonEmptyString(item.content)
  if (title === undefined) return "no content"
  const id = typeof item.id === "number" ? String(item.id) : nonEmptyString(item.id) ?? String(position)
  return { ref: todoRef(file.list, id), title, status: claudeStatus(item.status), source: "todo", updatedAt }
}

const taskListEntry = (value: unknown, file: TodoFile, updatedAt: string): Task | string => {
  if (!isRecord(value)) return "not a JSON object"
  const title = nonEmptyString(value.subject)
  if (title === undefined) return "no subject"
  const id = typeof value.id === "number" ? String(value.id) : nonEmptyString(value.id) ?? basename(file.path, ".json")
  return { ref: todoRef(file.list, id), title, status: claudeStatus(value.status), source: "todo", updatedAt }
}

const todoFile = (path: string, list: string, layout: TodoFile["layout"]): TodoFile | undefined => {
  try {
    return { path, list, layout, modifiedMs: statSync(path).mtimeMs }
  } catch {
    return undefined // removed between listing and stat: it holds no task any more
  }
}

/** A missing or unreadable folder holds nothing: most people have no todos at all. */
const entries = (folder: string) => {
  try {
    return readdirSync(folder, { withFileTypes: true })
  } catch {
    return []
  }
}

const jsonFiles = (folder: string): string[] =>
  entries(folder)
    .filter((e) => e.isFile() && e.name.endsWith(".json") && !e.name.startsWith("."))
    .map((e) => join(folder, e.name))

const subfolders = (folder: string): string[] => entries(folder).filter((e) => e.isDirectory()).map((e) => join(folder, e.name))
