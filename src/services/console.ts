/**
 * The `Console` service: the reads the console page needs beyond `Queries` (an overview of
 * the store, memories a page at a time by cursor, a memory's record over time, the tasks the log
 * names) and `subscribe`, the log's new events as they are appended by any process.
 *
 * Every read runs on one snapshot, as `viewer` sees the store (seen-by.ts; none given: the
 * shared memories only). `subscribe` is the event log's, without the events the viewer may not
 * see: a store without notifications (SQLite) looks at the log's head at most every `LIVE_POLL_MS`.
 */
import { Clock, Context, Effect, Either, Layer, Stream } from "effect"
import { Settings } from "../config.js"
import { searchesByKeyword } from "../retrieval/query-vector.js"
import type { DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import { Embedder } from "../embeddings/embedder.js"
import type { StoredEvent } from "../events/events.js"
import type { ConversationState } from "../projections/conversation-state.js"
import { DAY_MS } from "../projections/evidence-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import { recordSeries, type RecordPoint } from "../projections/record-series.js"
import type { DayOutcomes, GatedRow, NamedCount, PageFilter as StorePageFilter, StatusCounts } from "../store/console-reads.js"
import { EventLog } from "../store/event-log.js"
import { LedgerReader } from "../store/ledger-reader.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import { StoreMaintenance, type ChainBreak } from "../store/store-maintenance.js"
import type { TaskPlace } from "../tasks/task.js"
import type { MemoryView } from "./queries.js"
import type { Viewer } from "../domain/viewer.js"
import { eventSeenBy, seenBy } from "./seen-by.js"

/** How often `subscribe` looks at the log's head: at most this long before a new event is seen. */
export const LIVE_POLL_MS = 500
/** The days of outcomes the overview draws, today included. */
export const OVERVIEW_DAYS = 30
const OVERVIEW_PROJECTS = 12
const OVERVIEW_GATED = 10
const OVERVIEW_CONVERSATIONS = 8
/** How long an overview is reused while nothing is appended. */
const OVERVIEW_FRESH_MS = 5_000
/** Events one page of tasks reads at most, so that a log with few tasks still answers quickly. */
const TASK_SCAN_LIMIT = 20_000

export interface Overview {
  readonly at: string
  readonly events: number
  readonly memories: StatusCounts
  readonly byCategory: ReadonlyArray<NamedCount>
  readonly byProject: ReadonlyArray<NamedCount>
  readonly outcomesByDay: ReadonlyArray<DayOutcomes>
  readonly gated: { readonly count: number; readonly memories: ReadonlyArray<GatedRow & { readonly shortId: string }> }
  readonly conversations: ReadonlyArray<ConversationState>
  readonly search: { readonly mode: "keyword" | "hybrid"; readonly embedder: string; readonly vectorsCurrent: boolean | null }
  /** The log's head, and what the last `verify` found wrong, if it found anything. */
  readonly chain: { readonly head: { readonly seq: number; readonly hash: string } | null; readonly broken: ChainBreak | null }
}

export type PageFilter = Omit<StorePageFilter, "beforeKey"> & { readonly cursor?: string | undefined }

/** Whose private memories the console's reads show besides the shared ones (domain/viewer.ts). */
type Seen = { readonly viewer?: Viewer }

export interface MemoryPage {
  readonly views: ReadonlyArray<MemoryView>
  /** The cursor of the next page; null when this one is the last. */
  readonly next: string | null
}

export interface RecordOverTime {
  readonly memory: MemoryView
  /** The memory's outcome events, each saying whether it counts (its conversation is not forgotten). */
  readonly outcomes: ReadonlyArray<{ readonly event: StoredEvent; readonly counted: boolean }>
  readonly points: ReadonlyArray<RecordPoint>
}

export interface LoggedTask {
  readonly task: string
  readonly lastAt: string
  /** Recalls under it, and the memories they showed (those of forgotten conversations left out). */
  readonly recalls: number
  readonly recalled: ReadonlyArray<{ readonly id: string; readonly content: string | null }>
  readonly outcomes: ReadonlyArray<StoredEvent>
}

export interface ConsoleApi {
  readonly overview: (viewer?: Viewer) => Effect.Effect<Overview>
  readonly page: (filter: PageFilter) => Effect.Effect<MemoryPage>
  readonly record: (id: string, viewer?: Viewer) => Effect.Effect<RecordOverTime, DomainError>
  readonly tasks: (page: { readonly before?: number; readonly limit: number } & Seen) => Effect.Effect<{ tasks: LoggedTask[]; next: number | null }>
  /** The log's head now: where a subscriber that wants only new events starts. */
  readonly head: Effect.Effect<number>
  /** Every event after `afterSeq` that `viewer` may see, then each new one as it is appended, without end. */
  readonly subscribe: (afterSeq: number, viewer?: Viewer) => Stream.Stream<StoredEvent>
}

export class Console extends Context.Tag("memledger/Console")<Console, ConsoleApi>() {}

/**
 * Where a server started by `mem ui` runs, so the console lists the Beads and Claude Code tasks
 * found there beside those the log names; `mem serve` serves many folders and gives none.
 */
export class ConsoleTaskPlace extends Context.Tag("memledger/ConsoleTaskPlace")<ConsoleTaskPlace, TaskPlace>() {}

export const makeConsole: Effect.Effect<ConsoleApi, never, EventLog | LedgerReader | StoreMaintenance | Embedder | Settings> = Effect.gen(function* () {
  const log = yield* EventLog
  const reader = yield* LedgerReader
  const store = yield* StoreMaintenance
  const embedder = yield* Embedder
  const config = yield* Settings
  const view = (reads: LedgerReads, memory: MemoryState, evidence = reads.evidence(memory.id)): MemoryView => ({
    memory,
    shortId: reads.shortId(memory.id),
    evidence
  })

  const overview = (reads: LedgerReads, nowMs: number, vectorsCurrent: boolean | null): Overview => {
    const since = new Date(Math.floor(nowMs / DAY_MS - (OVERVIEW_DAYS - 1)) * DAY_MS).toISOString().slice(0, 10)
    const gated = reads.gatedMemories(nowMs, config, OVERVIEW_GATED)
    const head = reads.head()
    const counts = reads.memoryCounts(OVERVIEW_PROJECTS)
    return {
      at: new Date(nowMs).toISOString(),
      events: head.seq,
      memories: counts.status,
      byCategory: counts.byCategory,
      byProject: counts.byProject,
      outcomesByDay: reads.outcomesByDay(since),
      gated: { count: gated.count, memories: gated.memories.map((g) => ({ ...g, shortId: reads.shortId(g.id) })) },
      conversations: reads.conversations().slice(0, OVERVIEW_CONVERSATIONS),
      search: { mode: searchesByKeyword(embedder, store) ? "keyword" : "hybrid", embedder: embedder.model, vectorsCurrent },
      chain: { head: head.seq === 0 ? null : head, broken: reads.chainBreak() ?? null }
    }
  }

  /**
   * The overview reads the `counts` projection and the records the gate's index lets through
   * (tens of milliseconds the first time on a store of a million events, bench/console-api.ts).
   * It is reused while the log's head has not moved (any write appends) for up to
   * OVERVIEW_FRESH_MS, so a page opened again, or by several people, costs one read. Only the
   * gate's decay and a verify's finding can change without an append. Each viewer has an
   * overview of their own: it names the memories the gate holds back.
   */
  const cached = new Map<Viewer, { readonly seq: number; readonly atMs: number; readonly overview: Overview }>()
  const overviewAsOf = (reads: LedgerReads, viewer: Viewer, nowMs: number, vectorsCurrent: boolean | null): Overview => {
    const seq = reads.head().seq
    const kept = cached.get(viewer)
    if (kept !== undefined && kept.seq === seq && nowMs - kept.atMs >= 0 && nowMs - kept.atMs < OVERVIEW_FRESH_MS) return kept.overview
    // Old viewers' overviews go once the log moves on: they would never be fresh again.
    for (const [who, entry] of cached) if (entry.seq !== seq) cached.delete(who)
    const fresh = { seq, atMs: nowMs, overview: overview(seenBy(reads, viewer), nowMs, vectorsCurrent) }
    cached.set(viewer, fresh)
    return fresh.overview
  }
  const read = <A>(viewer: Viewer, f: (reads: LedgerReads) => A) => reader.read((reads) => f(seenBy(reads, viewer)))

  const page = (reads: LedgerReads, filter: PageFilter): MemoryPage => {
    const { cursor, ...rest } = filter
    const memories = reads.memoryPage({ ...rest, limit: filter.limit + 1, ...(cursor === undefined ? {} : { beforeKey: Number(cursor) }) })
    const shown = memories.slice(0, filter.limit)
    // One read for the page's records, not one a memory.
    const evidence = reads.evidenceOf(shown.map((m) => m.id))
    return { views: shown.map((m) => view(reads, m, evidence.get(m.id))), next: memories.length > filter.limit ? String(shown[shown.length - 1]!.key) : null }
  }

  const record = (reads: LedgerReads, memoryId: MemoryId, nowMs: number): RecordOverTime => {
    const hidden = reads.forgottenOrigins()
    const events = [...reads.events({ memoryId, types: ["OutcomeRecorded"] })]
    const counted = events.filter((e) => !hidden.has(e.origin))
    return {
      memory: view(reads, reads.memory(memoryId)!),
      outcomes: events.map((event) => ({ event, counted: !hidden.has(event.origin) })),
      points: recordSeries(memoryId, counted, nowMs, config)
    }
  }

  /**
   * The page's tasks with their events, read together (one read of the log, one of the texts).
   * A task is left out when the reader may see none of its events (they all concern another
   * person's private memories).
   */
  const loggedTasks = (reads: LedgerReads, tasks: ReadonlyArray<string>): LoggedTask[] => {
    const hidden = reads.forgottenOrigins()
    const eventsOf = new Map(tasks.map((task) => [task, [] as StoredEvent[]]))
    for (const e of reads.events({ tasks })) {
      const task = e.event?._tag === "MemoriesRecalled" || e.event?._tag === "OutcomeRecorded" ? e.event.task : undefined
      if (task !== undefined) eventsOf.get(task)?.push(e)
    }
    const found = tasks.flatMap((task) => {
      const events = eventsOf.get(task)!
      if (events.length === 0) return []
      const recalled = new Set<string>()
      let recalls = 0
      for (const e of events) {
        if (e.event?._tag !== "MemoriesRecalled") continue
        recalls++
        if (!hidden.has(e.origin)) for (const id of e.event.memoryIds) recalled.add(id)
      }
      return [{ task, events, recalls, recalled }]
    })
    const texts = reads.memoryTexts([...new Set(found.flatMap((t) => [...t.recalled]))])
    return found.map(({ task, events, recalls, recalled }) => ({
      task,
      lastAt: events[events.length - 1]?.recordedAt ?? "",
      recalls,
      recalled: [...recalled].map((id) => ({ id, content: texts.get(id) ?? null })),
      outcomes: events.filter((e) => e.event?._tag === "OutcomeRecorded")
    }))
  }

  const api: ConsoleApi = {
    overview: (viewer = null) =>
      Effect.gen(function* () {
        const nowMs = yield* Clock.currentTimeMillis
        const vectorsCurrent = searchesByKeyword(embedder, store) ? null : yield* store.vectorsCurrent(embedder.model)
        return yield* reader.read((reads) => overviewAsOf(reads, viewer, nowMs, vectorsCurrent))
      }),
    page: (filter) => read(filter.viewer ?? null, (reads) => page(reads, filter)),
    record: (id, viewer = null) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
        Effect.flatten(read(viewer, (reads) => Either.map(reads.resolveId(id), (memoryId) => record(reads, memoryId, nowMs))))
      ),
    tasks: ({ before, limit, viewer = null }) =>
      read(viewer, (reads) => {
        const found = reads.recentTasks(before, limit, TASK_SCAN_LIMIT)
        return { tasks: loggedTasks(reads, found.tasks.map((t) => t.task)), next: found.next }
      }),
    head: Effect.map(log.head, (head) => head.seq),
    subscribe: (afterSeq, viewer = null) =>
      log.subscribe(afterSeq, LIVE_POLL_MS).pipe(Stream.filterEffect((event) => reader.read((reads) => eventSeenBy(reads, viewer)(event))))
  }
  return api
})

export const ConsoleLive = Layer.effect(Console, makeConsole)
