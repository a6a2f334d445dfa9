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
 *
 * An outcome is seen by a reader who may see every memory it names (seen-by.ts), and whose a
 * memory is can change after its outcomes (an edit makes it private, or shares it). So an
 * outcome naming only memories no event ever made private counts on its day, seen by everyone;
 * one naming a memory some event made private, before or after it, is kept by itself
 * (`PrivateOutcome`), and who sees it is decided when it is read, by whose its memories are then.
 * Being made private once is for good, so an outcome moves at most once, and a rebuild, which
 * knows every memory the log makes private, puts each outcome where the writes left it.
 */
import type { Outcome } from "../domain/vocabulary.js"
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

/** An outcome naming a memory that some event of the log makes private: who sees it is read with it. */
export interface PrivateOutcome {
  readonly seq: number
  readonly day: string
  readonly origin: string
  readonly outcome: Outcome
  readonly memoryIds: ReadonlyArray<string>
}

/** What a write changes in the counts; the whole counts when folded from nothing. */
export interface CountChanges {
  readonly memories: ReadonlyArray<MemoryGroupCount>
  /** May hold negative counts: outcomes a write moved to `privateOutcomes`. */
  readonly outcomeDays: ReadonlyArray<OutcomeDay>
  readonly privateOutcomes: ReadonlyArray<PrivateOutcome>
}

/**
 * The memory an event makes private, if it makes one: a memory added or edited as private by a
 * person's token. The same rule by which the log's filter learns whose a memory is from its events.
 */
export const madePrivate = (stored: Pick<StoredEvent, "event" | "author">): string | undefined => {
  const event = stored.event
  if (stored.author === undefined || (event?._tag !== "MemoryAdded" && event?._tag !== "MemoryRevised")) return undefined
  return event.visibility === "private" ? event.memoryId : undefined
}

/** The key a group is kept under: every column, nulls included, as one string. */
export const memoryGroupKey = (g: MemoryGroup): string => JSON.stringify([g.category, g.project, g.status, g.forgotten, g.superseded, g.privateTo])

export interface CountTally {
  /** A memory changed from `before` to `after` (either absent: added, or gone from the projections). */
  readonly memory: (before: MemoryState | undefined, after: MemoryState | undefined) => void
  /**
   * An event appended: an outcome report counts on its day, or, when it names a memory that
   * `madePrivateBefore` says an event before it made private, as a private outcome.
   */
  readonly event: (stored: StoredEvent, madePrivateBefore: (memoryId: string) => boolean) => void
  /** An outcome counted on its day names a memory just made private: it is a private outcome now. */
  readonly toPrivate: (outcome: StoredEvent) => void
  /** The sums so far, without the groups and days they leave as they were. */
  readonly changes: () => CountChanges
}

/** Sums changes per group and per day, so that a write stores one row for each it touched. */
export const countTally = (): CountTally => {
  const groups = new Map<string, MemoryGroupCount>()
  // Added to in place: a rebuild counts every outcome of the log through here.
  const days = new Map<string, { -readonly [K in keyof OutcomeDay]: OutcomeDay[K] }>()
  const privateOutcomes: PrivateOutcome[] = []
  const addToDay = (stored: StoredEvent, outcome: Outcome, n: number) => {
    const day = stored.recordedAt.slice(0, 10)
    const key = `${day} ${stored.origin}`
    let counted = days.get(key)
    if (counted === undefined) days.set(key, (counted = { day, origin: stored.origin, worked: 0, failed: 0, partial: 0 }))
    counted[outcome] += n
  }
  const keepPrivate = (stored: StoredEvent, outcome: Outcome, memoryIds: ReadonlyArray<string>) =>
    privateOutcomes.push({ seq: stored.seq, day: stored.recordedAt.slice(0, 10), origin: stored.origin, outcome, memoryIds: [...new Set(memoryIds)] })
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
    event: (stored, madePrivateBefore) => {
      const event = stored.event
      if (event?._tag !== "OutcomeRecorded") return
      if (event.memoryIds.some(madePrivateBefore)) keepPrivate(stored, event.outcome, event.memoryIds)
      else addToDay(stored, event.outcome, 1)
    },
    toPrivate: (stored) => {
      const event = stored.event
      if (event?._tag !== "OutcomeRecorded") return
      addToDay(stored, event.outcome, -1)
      keepPrivate(stored, event.outcome, event.memoryIds)
    },
    changes: () => ({
      memories: [...groups.values()].filter((g) => g.n !== 0),
      outcomeDays: [...days.values()].filter((d) => d.worked !== 0 || d.failed !== 0 || d.partial !== 0),
      privateOutcomes
    })
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
