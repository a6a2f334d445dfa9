/**
 * All tasks in reach of a working folder: its Beads issues and the Claude Code todos the
 * environment points at, as one list; and the task in progress now, which recall links to.
 */
import { readBeads } from "./beads.js"
import { listTodoFiles, readTodoFile } from "./claude-todos.js"
import type { Task, TaskPlace, TaskScan } from "./task.js"

export const findTasks = (place: TaskPlace): TaskScan => {
  const beads = readBeads(place.cwd)
  const todos = listTodoFiles(place.env).map(readTodoFile)
  return {
    tasks: [...beads.tasks, ...todos.flatMap((s) => s.tasks)],
    skipped: [...beads.skipped, ...todos.flatMap((s) => s.skipped)]
  }
}

/**
 * The one task in progress. Trackers allow several (an abandoned session leaves its todo
 * `in_progress` for good), so the most recently updated one wins: that is the one being worked
 * on now, most likely. A tie goes to the smaller ref, so the answer never depends on file order.
 *
 * Called before every search, so it reads as little as it can: todo files are visited newest
 * first, and a file older than the best task found so far cannot hold a newer one (a todo's
 * time is its file's), so the walk stops there.
 */
export const currentTask = (place: TaskPlace): Task | undefined => {
  let best = latestInProgress(readBeads(place.cwd).tasks)
  for (const file of listTodoFiles(place.env)) {
    if (best !== undefined && new Date(file.modifiedMs).toISOString() < best.updatedAt) break
    best = latestInProgress(readTodoFile(file).tasks, best)
  }
  return best
}

/** Of these tasks (and `best`, if given), the in-progress one updated last: the rule above. */
export const latestInProgress = (tasks: ReadonlyArray<Task>, best?: Task): Task | undefined =>
  tasks.filter((t) => t.status === "in_progress").reduce<Task | undefined>((a, b) => (a === undefined || newer(b, a) ? b : a), best)

const newer = (a: Task, b: Task): boolean => a.updatedAt > b.updatedAt || (a.updatedAt === b.updatedAt && a.ref < b.ref)
