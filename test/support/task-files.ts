/**
 * Real tracker files in temp folders: a project with `.beads/issues.jsonl`, and a home whose
 * `.claude/todos` and `.claude/tasks` hold Claude Code's lists, with modification times a test sets.
 */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { tempDir } from "./cli.js"

export interface BeadsIssue {
  readonly id: string
  readonly title?: string
  readonly status?: string
  readonly updated_at?: string
  readonly [field: string]: unknown
}

export interface Todo {
  readonly content: string
  readonly status: "pending" | "in_progress" | "completed" | string
  readonly activeForm?: string
  readonly id?: string | number
}

/** A project folder with `.beads/<file>` holding these issues (or raw lines), one per line. */
export const beadsProject = (issues: ReadonlyArray<BeadsIssue | string>, file = "issues.jsonl", project = tempDir("memledger-project-")): string => {
  mkdirSync(join(project, ".beads"), { recursive: true })
  writeFileSync(join(project, ".beads", file), issues.map((i) => (typeof i === "string" ? i : JSON.stringify(i))).join("\n") + "\n")
  return project
}

/** A home folder for Claude Code; `env` points the readers at it as HOME would. */
export const claudeHome = (home = tempDir("memledger-home-")) => ({
  home,
  env: { HOME: home } as Record<string, string>,
  /** Writes `~/.claude/todos/<list>.json` (an array, or raw text) modified at `modifiedAt`. */
  todos(list: string, todos: ReadonlyArray<Todo> | string, modifiedAt?: string): string {
    const folder = join(home, ".claude", "todos")
    mkdirSync(folder, { recursive: true })
    return writeAt(join(folder, `${list}.json`), typeof todos === "string" ? todos : JSON.stringify(todos), modifiedAt)
  },
  /** Writes `~/.claude/tasks/<list>/<id>.json`, one task, modified at `modifiedAt`. */
  taskListEntry(list: string, task: Record<string, unknown> | string, modifiedAt?: string, fileName?: string): string {
    const folder = join(home, ".claude", "tasks", list)
    mkdirSync(folder, { recursive: true })
    const name = fileName ?? (typeof task === "string" ? "broken" : String(task.id))
    return writeAt(join(folder, `${name}.json`), typeof task === "string" ? task : JSON.stringify(task), modifiedAt)
  }
})

const writeAt = (path: string, text: string, modifiedAt?: string): string => {
  writeFileSync(path, text)
  if (modifiedAt !== undefined) utimesSync(path, new Date(modifiedAt), new Date(modifiedAt))
  return path
}
