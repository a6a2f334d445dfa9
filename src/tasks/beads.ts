/**
 * Beads issues (github.com/steveyegge/beads): one JSON object per line in `.beads/issues.jsonl`
 * (`beads.jsonl` in older versions), found by walking up from the working folder the way `bd`
 * does. Only that one file is read, as `bd` itself reads it: the other `.jsonl` files a `.beads`
 * folder may hold (deletions.jsonl, interactions.jsonl, the beads.base/left/right.jsonl of a merge)
 * are not issues, and reading the merge copies would count every issue twice.
 */
import { existsSync, readFileSync, statSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { beadsRef, isoTime, isRecord, nonEmptyString, type SkippedInput, type Task, type TaskScan, type TaskStatus } from "./task.js"

/** The issues file of the nearest `.beads` folder at or above `cwd`, if any. */
export const findBeadsFile = (cwd: string): string | undefined => {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const folder = join(dir, ".beads")
    if (isDirectory(folder)) {
      // The nearest .beads folder is the project's, even when it holds no issues yet.
      return ISSUE_FILES.map((name) => join(folder, name)).find((file) => existsSync(file))
    }
    if (dirname(dir) === dir) return undefined
  }
}

export const readBeads = (cwd: string): TaskScan => {
  const file = findBeadsFile(cwd)
  if (file === undefined) return { tasks: [], skipped: [] }
  try {
    return parseBeadsFile(file, readFileSync(file, "utf8"), statSync(file).mtime.toISOString())
  } catch (error) {
    // Unreadable (permissions, removed meanwhile): the other source still counts.
    return { tasks: [], skipped: [{ source: "beads", file, reason: `cannot read it: ${(error as Error).message}` }] }
  }
}

/**
 * Parses the text of an issues file. A line that is not an issue (not JSON, not an object, no
 * id) is skipped and reported. An id seen twice keeps its most recently updated line (the later
 * line on a tie), so a file with an issue appended again after an update reads as its latest state.
 */
export const parseBeadsFile = (file: string, text: string, fileTime: string): TaskScan => {
  const byId = new Map<string, Task>()
  const skipped: SkippedInput[] = []
  text.split("\n").forEach((raw, index) => {
    const line = raw.trim()
    if (line.length === 0) return
    const parsed = parseLine(line, fileTime)
    if (typeof parsed === "string") {
      skipped.push({ source: "beads", file, at: index + 1, reason: parsed })
      return
    }
    const seen = byId.get(parsed.ref)
    if (seen === undefined || seen.updatedAt <= parsed.updatedAt) byId.set(parsed.ref, parsed)
  })
  return { tasks: [...byId.values()], skipped }
}

/**
 * Beads statuses onto ours:
 * - `open`, `in_progress`, `blocked` are the same words;
 * - `closed` is `done` (Beads has no separate "won't do": a closed issue is finished);
 * - `tombstone` (a deleted issue) is `cancelled`: dropped without being finished;
 * - `deferred` (on ice), `pinned` (a standing note), `hooked` (queued for an agent) are `open`:
 *   nobody is working on them and nothing is finished;
 * - a missing status is `open` (Beads' default), and so is one this code does not know yet, so
 *   that a newer Beads can never make memledger record an outcome it did not mean.
 */
export const beadsStatus = (status: unknown): TaskStatus => {
  switch (status) {
    case "in_progress":
      return "in_progress"
    case "blocked":
      return "blocked"
    case "closed":
      return "done"
    case "tombstone":
      return "cancelled"
    default:
      return "open"
  }
}

const ISSUE_FILES = ["issues.jsonl", "beads.jsonl"]

const parseLine = (line: string, fileTime: string): Task | string => {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return "not JSON"
  }
  if (!isRecord(value)) return "not a JSON object"
  const id = nonEmptyString(value.id)
  if (id === undefined) return "no issue id"
  return {
    ref: beadsRef(id),
    title: nonEmptyString(value.title) ?? id,
    status: beadsStatus(value.status),
    source: "beads",
    updatedAt: isoTime(value.updated_at) ?? isoTime(value.closed_at) ?? isoTime(value.created_at) ?? fileTime
  }
}

/** Asked for every folder up to the root on each recall: a missing one answers without an exception. */
const isDirectory = (path: string): boolean => {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false
  } catch {
    return false
  }
}
