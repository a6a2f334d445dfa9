/**
 * What the stores' reads do with rows once a query has returned them, the same in every store:
 * the overview's counts from rows grouped by what they count, the tasks the log names from its
 * recalls and outcomes read backwards a batch at a time, and an id's shortest unique prefix
 * from its neighbours in id order.
 */
import { ID_DISPLAY_LENGTH } from "../domain/ids.js"
import type { MemoryCounts, NamedCount, RecentTasks } from "./console-reads.js"

/** Memories grouped by category, project, status and liveness, with how many are in each group. */
export interface MemoryGroup {
  readonly category: string
  readonly project: string | null
  readonly status: string
  readonly forgotten: number
  /** SQLite answers 0 or 1, PostgreSQL a boolean. */
  readonly superseded: number | boolean
  readonly n: number
}

/** Every count of memories the overview shows; at most `projects` projects, most memories first. */
export const countMemories = (groups: Iterable<MemoryGroup>, projects: number): MemoryCounts => {
  const status = { live: 0, confirmed: 0, tentative: 0, forgotten: 0, superseded: 0 }
  const byCategory = new Map<string, number>()
  const byProject = new Map<string | null, number>()
  for (const g of groups) {
    if (g.forgotten === 1) status.forgotten += g.n
    else if (g.superseded === true || g.superseded === 1) status.superseded += g.n
    else {
      status.live += g.n
      if (g.status === "confirmed") status.confirmed += g.n
      if (g.status === "tentative") status.tentative += g.n
      byCategory.set(g.category, (byCategory.get(g.category) ?? 0) + g.n)
      byProject.set(g.project, (byProject.get(g.project) ?? 0) + g.n)
    }
  }
  return { status, byCategory: mostFirst(byCategory), byProject: mostFirst(byProject).slice(0, projects) }
}

const mostFirst = (counts: Map<string | null, number>): NamedCount[] =>
  [...counts]
    .map(([name, memories]) => ({ name, memories }))
    .sort((a, b) => b.memories - a.memories || String(a.name ?? "").localeCompare(String(b.name ?? "")))

/** Events a task scan reads at a time, at most. */
export const TASK_SCAN_STEP = 2000

/**
 * The tasks the log names, newest first, reading at most `scanLimit` events before `before`:
 * `batch(cursor, step)` gives the recalls and outcomes before `cursor`, newest first. The first
 * batch is a few times `limit` (where tasks are named often, it holds them all), and each next
 * one four times the last, up to TASK_SCAN_STEP: the same events are read, in fewer rows where
 * the page fills early.
 */
export const scanTasks = (
  batch: (cursor: number, step: number) => ReadonlyArray<{ readonly seq: number; readonly task: string | null }>,
  before: number | undefined,
  limit: number,
  scanLimit: number
): RecentTasks => {
  const seen = new Map<string, number>()
  let cursor = before ?? Number.MAX_SAFE_INTEGER
  let scanned = 0
  let step = Math.min(TASK_SCAN_STEP, Math.max(100, 4 * limit))
  while (seen.size < limit && scanned < scanLimit) {
    const asked = Math.min(step, scanLimit - scanned)
    const rows = batch(cursor, asked)
    for (const row of rows) {
      cursor = row.seq
      if (row.task !== null && !seen.has(row.task)) {
        seen.set(row.task, row.seq)
        if (seen.size === limit) break
      }
    }
    scanned += asked
    if (rows.length < asked) return { tasks: listed(seen), next: seen.size === limit ? cursor : null }
    step = Math.min(TASK_SCAN_STEP, 4 * step)
  }
  return { tasks: listed(seen), next: cursor }
}

const listed = (seen: Map<string, number>) => [...seen].map(([task, lastSeq]) => ({ task, lastSeq }))

/** The shortest prefix of `id` that neither neighbour shares, and never under 8 characters. */
export const shortestUniquePrefix = (id: string, before: string | null, after: string | null): string => {
  const shared = Math.max(commonPrefix(id, before), commonPrefix(id, after))
  return id.slice(0, Math.max(ID_DISPLAY_LENGTH, shared + 1))
}

const commonPrefix = (a: string, b: string | null): number => {
  if (b === null) return 0
  let i = 0
  while (i < a.length && a[i] === b[i]) i++
  return i
}
