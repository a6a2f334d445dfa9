/**
 * The `Console` service: the reads the console page needs beyond `Queries` (an overview of
 * the store, memories a page at a time by cursor, a memory's record over time, the tasks the log
 * names) and `subscribe`, the log's new events as they are appended by any process.
 *
 * Every read runs on one snapshot. `subscribe` polls the log's head: SQLite tells no other
 * process about a commit, so a poll every `LIVE_POLL_MS` is the cheapest way to see one (a
 * store that can push would replace only this function).
 */
import { Chunk, Clock, Context, Effect, Either, Layer, Option, Stream } from "effect"
import { DAY_MS, type EvidenceState } from "../projections/evidence-state.js"
import type { DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import { Embedder } from "../embeddings/embedder.js"
import type { StoredEvent } from "../events/events.js"
import { lastEvent, readEvents } from "../events/log.js"
import { contentChanges, syncedChanges } from "../projections/content-changes.js"
import { forgottenOrigins, listConversations } from "../projections/conversations.js"
import type { ConversationState } from "../projections/conversation-state.js"
import { loadEvidence, loadEvidenceOf } from "../projections/evidence.js"
import { resolveMemoryId, shortId } from "../projections/id-prefix.js"
import { rowToMemory } from "../projections/memories.js"
import { recordSeries, type RecordPoint } from "../projections/record-series.js"
import { vectorSyncName } from "../retrieval/query-vector.js"
import { readChainBreak, type ChainBreak } from "../store/chain-break.js"
import * as Sql from "../store/sqlite/console-reads.js"
import { recentTasks } from "../store/sqlite/task-reads.js"
import type { TaskPlace } from "../tasks/task.js"
import type { MemoryView } from "./queries.js"
import { Store } from "./store.js"

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
  readonly memories: Sql.StatusCounts
  readonly byCategory: ReadonlyArray<Sql.NamedCount>
  readonly byProject: ReadonlyArray<Sql.NamedCount>
  readonly outcomesByDay: ReadonlyArray<Sql.DayOutcomes>
  readonly gated: { readonly count: number; readonly memories: ReadonlyArray<Sql.GatedRow & { readonly shortId: string }> }
  readonly conversations: ReadonlyArray<ConversationState>
  readonly search: { readonly mode: "keyword" | "hybrid"; readonly embedder: string; readonly vectorsCurrent: boolean | null }
  /** The log's head, and what the last `verify` found wrong, if it found anything. */
  readonly chain: { readonly head: { readonly seq: number; readonly hash: string } | null; readonly broken: ChainBreak | null }
}

export type PageFilter = Omit<Sql.PageFilter, "beforeKey"> & { readonly cursor?: string | undefined }

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
  readonly overview: Effect.Effect<Overview>
  readonly page: (filter: PageFilter) => Effect.Effect<MemoryPage>
  readonly record: (id: string) => Effect.Effect<RecordOverTime, DomainError>
  readonly tasks: (page: { readonly before?: number; readonly limit: number }) => Effect.Effect<{ tasks: LoggedTask[]; next: number | null }>
  /** The log's head now: where a subscriber that wants only new events starts. */
  readonly head: Effect.Effect<number>
  /** Every event after `afterSeq`, then each new one as it is appended, without end. */
  readonly subscribe: (afterSeq: number) => Stream.Stream<StoredEvent>
}

export class Console extends Context.Tag("memledger/Console")<Console, ConsoleApi>() {}

/**
 * Where a server started by `mem ui` runs, so the console lists the Beads and Claude Code tasks
 * found there beside those the log names; `mem serve` serves many folders and gives none.
 */
export class ConsoleTaskPlace extends Context.Tag("memledger/ConsoleTaskPlace")<ConsoleTaskPlace, TaskPlace>() {}

export const ConsoleLive = Layer.effect(
  Console,
  Effect.gen(function* () {
    const store = yield* Store
    const embedder = yield* Embedder
    const config = store.config
    const db = store.db
    const view = (row: Parameters<typeof rowToMemory>[0], evidence: EvidenceState | undefined): MemoryView => ({
      memory: rowToMemory(row),
      shortId: shortId(db, row.id),
      evidence
    })

    const overview = (nowMs: number): Overview => {
      const since = new Date(Math.floor(nowMs / DAY_MS - (OVERVIEW_DAYS - 1)) * DAY_MS).toISOString()
      const gated = Sql.gatedMemories(db, nowMs, config, OVERVIEW_GATED)
      const head = lastEvent(db)
      const broken = readChainBreak(db)
      const counts = Sql.memoryCounts(db, OVERVIEW_PROJECTS)
      return {
        at: new Date(nowMs).toISOString(),
        events: head?.seq ?? 0,
        memories: counts.status,
        byCategory: counts.byCategory,
        byProject: counts.byProject,
        outcomesByDay: Sql.outcomesByDay(db, since),
        gated: { count: gated.count, memories: gated.memories.map((g) => ({ ...g, shortId: shortId(db, g.id) })) },
        conversations: listConversations(db).slice(0, OVERVIEW_CONVERSATIONS),
        search: {
          mode: embedder.provider === "none" ? "keyword" : "hybrid",
          embedder: embedder.model,
          vectorsCurrent: embedder.provider === "none" ? null : syncedChanges(db, vectorSyncName(embedder.model)) === contentChanges(db)
        },
        chain: { head: head ?? null, broken: broken ?? null }
      }
    }

    /**
     * The overview counts every memory and reads a month of the log: hundreds of milliseconds on
     * a store of 100,000 memories. It is reused while the log's head has not moved (any write
     * appends) for up to OVERVIEW_FRESH_MS, so a page opened again, or by several people, costs
     * one read. Only the gate's decay and a verify's finding can change without an append.
     */
    let cached: { readonly seq: number; readonly atMs: number; readonly overview: Overview } | undefined
    const overviewAsOf = (nowMs: number): Overview => {
      const seq = lastEvent(db)?.seq ?? 0
      if (cached !== undefined && cached.seq === seq && nowMs - cached.atMs >= 0 && nowMs - cached.atMs < OVERVIEW_FRESH_MS) return cached.overview
      cached = { seq, atMs: nowMs, overview: overview(nowMs) }
      return cached.overview
    }

    const page = (filter: PageFilter): MemoryPage => {
      const { cursor, ...rest } = filter
      const rows = Sql.memoryPage(db, { ...rest, limit: filter.limit + 1, ...(cursor === undefined ? {} : { beforeKey: Number(cursor) }) })
      const shown = rows.slice(0, filter.limit)
      // One statement for the page's records, not one a memory.
      const evidence = loadEvidenceOf(db, shown.map((r) => r.id))
      return { views: shown.map((row) => view(row, evidence.get(row.id))), next: rows.length > filter.limit ? String(shown[shown.length - 1]!.key) : null }
    }

    const record = (memoryId: MemoryId, nowMs: number): RecordOverTime => {
      const hidden = forgottenOrigins(db)
      const events = [...readEvents(db, { memoryId, types: ["OutcomeRecorded"] })]
      const counted = events.filter((e) => !hidden.has(e.origin))
      return {
        memory: view(Sql.memoryRow(db, memoryId), loadEvidence(db, memoryId)),
        outcomes: events.map((event) => ({ event, counted: !hidden.has(event.origin) })),
        points: recordSeries(memoryId, counted, nowMs, config)
      }
    }

    const loggedTask = (task: string): LoggedTask => {
      const hidden = forgottenOrigins(db)
      const events = [...readEvents(db, { task })]
      const recalled = new Set<string>()
      let recalls = 0
      for (const e of events) {
        if (e.event?._tag !== "MemoriesRecalled") continue
        recalls++
        if (!hidden.has(e.origin)) for (const id of e.event.memoryIds) recalled.add(id)
      }
      const texts = Sql.memoryTexts(db, [...recalled])
      return {
        task,
        lastAt: events[events.length - 1]?.recordedAt ?? "",
        recalls,
        recalled: [...recalled].map((id) => ({ id, content: texts.get(id) ?? null })),
        outcomes: events.filter((e) => e.event?._tag === "OutcomeRecorded")
      }
    }

    const eventsAfter = (after: number): StoredEvent[] => store.read(() => [...readEvents(db, { after, limit: 500 })])

    const api: ConsoleApi = {
      overview: Effect.flatMap(Clock.currentTimeMillis, (nowMs) => Effect.sync(() => store.read(() => overviewAsOf(nowMs)))),
      page: (filter) => Effect.sync(() => store.read(() => page(filter))),
      record: (id) =>
        Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
          Effect.suspend(() => store.read(() => Either.map(resolveMemoryId(db, id), (memoryId) => record(memoryId, nowMs))))
        ),
      tasks: ({ before, limit }) =>
        Effect.sync(() =>
          store.read(() => {
            const found = recentTasks(db, before, limit, TASK_SCAN_LIMIT)
            return { tasks: found.tasks.map(({ task }) => loggedTask(task)), next: found.next }
          })
        ),
      head: Effect.sync(() => store.read(() => lastEvent(db)?.seq ?? 0)),
      subscribe: (afterSeq) =>
        Stream.paginateChunkEffect(afterSeq, (after) =>
          Effect.gen(function* () {
            const events = eventsAfter(after)
            if (events.length === 0) yield* Effect.sleep(LIVE_POLL_MS)
            const last = events[events.length - 1]?.seq ?? after
            return [Chunk.fromIterable(events), Option.some(last)] as const
          })
        )
    }
    return api
  })
)
