/**
 * The `counts` projection's pure part: how many memories are in each group the console's
 * overview counts by (category, project, status, forgotten, superseded, whose they are), and
 * how many outcomes each conversation reported on each UTC day. Kept as running sums that each
 * memory's change and each outcome move, in the write that makes them, so an overview reads a
 * few hundred rows where it read every memory and a month of the log.
 *
 * Outcomes count whatever their conversation: the overview leaves out a forgotten conversation's
 * when it reads them, since the conversation may be brought back. A purged outcome (its payload
 * gone) counts nowhere: purge rebuilds the projections, whose fold no longer sees it.
 */
import type { StoredEvent } from "../events/events.js"
import type { MemoryState } from "./memory-state.js"

/** The columns a memory is counted by. */
export interface MemoryGroup {
  readonly category: string
  readonly project: string | null
  readonly status: string
  readonly forgotten: boolean
  readonly superseded: boolean
  readonly privateTo: string | null
}

/** How many memories a group holds, or by how many a write changes it. */
export interface MemoryGroupCount extends MemoryGroup {
  readonly n: number
}

/** One conversation's outcome reports on one UTC day (YYYY-MM-DD), or what a write adds to them. */
export interface OutcomeDay {
  readonly day: string
  readonly origin: string
  readonly worked: number
  readonly failed: number
  readonly partial: number
}

/** What a write changes in the counts; the whole counts when folded from nothing. */
export interface CountChanges {
  readonly memories: ReadonlyArray<MemoryGroupCount>
  readonly outcomeDays: ReadonlyArray<OutcomeDay>
}

/** The key a group is kept under: every column, nulls included, as one string. */
export const memoryGroupKey = (g: MemoryGroup): string => JSON.stringify([g.category, g.project, g.status, g.forgotten, g.superseded, g.privateTo])

export interface CountTally {
  /** A memory changed from `before` to `after` (either absent: added, or gone from the projections). */
  readonly memory: (before: MemoryState | undefined, after: MemoryState | undefined) => void
  /** An event appended: an outcome report counts on its day. */
  readonly event: (stored: StoredEvent) => void
  /** The sums so far, without the groups and days they leave as they were. */
  readonly changes: () => CountChanges
}

/** Sums changes per group and per day, so that a write stores one row for each it touched. */
export const countTally = (): CountTally => {
  const groups = new Map<string, MemoryGroupCount>()
  // Added to in place: a rebuild counts every outcome of the log through here.
  const days = new Map<string, { -readonly [K in keyof OutcomeDay]: OutcomeDay[K] }>()
  const add = (m: MemoryState, n: number) => {
    const group = groupOf(m)
    const key = memoryGroupKey(group)
    groups.set(key, { ...group, n: (groups.get(key)?.n ?? 0) + n })
  }
  return {
    memory: (before, after) => {
      if (before !== undefined) add(before, -1)
      if (after !== undefined) add(after, 1)
    },
    event: (stored) => {
      const event = stored.event
      if (event?._tag !== "OutcomeRecorded") return
      const day = stored.recordedAt.slice(0, 10)
      const key = `${day} ${stored.origin}`
      let counted = days.get(key)
      if (counted === undefined) days.set(key, (counted = { day, origin: stored.origin, worked: 0, failed: 0, partial: 0 }))
      counted[event.outcome] += 1
    },
    changes: () => ({ memories: [...groups.values()].filter((g) => g.n !== 0), outcomeDays: [...days.values()] })
  }
}

const groupOf = (m: MemoryState): MemoryGroup => ({
  category: m.category,
  project: m.project,
  status: m.status,
  forgotten: m.forgotten,
  superseded: m.supersededBy !== null,
  privateTo: m.privateTo
})
