/**
 * The reads behind the console, as part of the port: the counts of its overview, the outcomes
 * per day, the memories the failure gate holds back, memories a page at a time by cursor, and
 * the tasks the log names. Each is bounded so that it stays fast on a store of 100,000 memories
 * and a million events (bench/console-api.ts).
 */
import type { LedgerConfig } from "../config.js"
import type { MemoryState } from "../projections/memory-state.js"
import type { ChainBreak } from "./store-maintenance.js"
import type { Viewer } from "../domain/viewer.js"

export interface ConsoleReads {
  /** Every count of memories the overview shows (of those `viewer` sees); at most `projects` projects, most memories first. */
  readonly memoryCounts: (projects: number, viewer?: Viewer) => MemoryCounts
  /**
   * Outcome reports per UTC day from the day `sinceDay` (YYYY-MM-DD) on, those of forgotten
   * conversations left out, and those `viewer` could not see in the log (naming a memory private
   * to someone else) too.
   */
  readonly outcomesByDay: (sinceDay: string, viewer?: Viewer) => DayOutcomes[]
  /**
   * Live memories the failure gate holds back at `nowMs`, lowest score first, and how many there
   * are. `config` is the store's own: its records were folded with that half-life.
   */
  readonly gatedMemories: (nowMs: number, config: LedgerConfig, limit: number, viewer?: Viewer) => { count: number; memories: GatedRow[] }
  /** A page of memories, newest first, from a cursor: a deep page costs what the first one does. */
  readonly memoryPage: (filter: PageFilter) => MemoryState[]
  /** A few memories' text by id, for naming them beside the events that cite them. */
  readonly memoryTexts: (ids: ReadonlyArray<string>) => Map<string, string>
  /** The tasks the log names, newest first, reading at most `scanLimit` events before `before`. */
  readonly recentTasks: (before: number | undefined, limit: number, scanLimit: number) => RecentTasks
  /** What the last verify found wrong with the log, if it found anything and it still stands. */
  readonly chainBreak: () => ChainBreak | undefined
}

export interface StatusCounts {
  readonly live: number
  readonly confirmed: number
  readonly tentative: number
  readonly forgotten: number
  readonly superseded: number
}

export interface NamedCount {
  readonly name: string | null
  readonly memories: number
}

export interface MemoryCounts {
  readonly status: StatusCounts
  /** Live memories per category, most first. */
  readonly byCategory: NamedCount[]
  /** Live memories per project (null: global), most first, at most `projects` of them. */
  readonly byProject: NamedCount[]
}

export interface DayOutcomes {
  readonly day: string
  readonly worked: number
  readonly failed: number
  readonly partial: number
}

export interface GatedRow {
  readonly id: string
  readonly content: string
  readonly worked: number
  readonly failed: number
  readonly score: number
}

export interface PageFilter {
  readonly project?: string | undefined
  readonly category?: string | undefined
  readonly status?: string | undefined
  readonly all?: boolean | undefined
  /** Memories carrying every one of these tags. */
  readonly tags?: ReadonlyArray<string> | undefined
  /** The conversation that added it. */
  readonly origin?: string | undefined
  readonly agent?: string | undefined
  /** Keyset pagination: only memories older than this row key (the last one of the page before). */
  readonly beforeKey?: number | undefined
  readonly limit: number
  /** Whose private memories are listed besides the shared ones; none when absent. */
  readonly viewer?: Viewer | undefined
}

export interface RecentTasks {
  /** Each task once, by the sequence number of its latest event, newest first. */
  readonly tasks: ReadonlyArray<{ readonly task: string; readonly lastSeq: number }>
  /** The `before` of the next page: null when the log's start was reached. */
  readonly next: number | null
}
