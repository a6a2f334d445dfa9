/**
 * The `Queries` service: every read that is not ranking. All run on one snapshot.
 */
import { Clock, Context, Effect, Either, Layer } from "effect"
import type { DomainError } from "../domain/errors.js"
import type { StoredEvent } from "../events/events.js"
import { eventCount, readEvents } from "../store/sqlite/event-log.js"
import type { ConversationState } from "../projections/conversation-state.js"
import { listConversations } from "../store/sqlite/projections/conversations.js"
import { loadEvidence, rowToEvidence } from "../store/sqlite/projections/evidence.js"
import { recordAt } from "../projections/evidence-state.js"
import type { EvidenceState } from "../projections/evidence-state.js"
import { resolveMemoryId, shortId } from "../store/sqlite/projections/id-prefix.js"
import type { MemoryState } from "../projections/memory-state.js"
import { MEMORY_COLUMNS, rowToMemory, type MemoryRow } from "../store/sqlite/projections/memories.js"
import { fileSize } from "../store/sqlite/database.js"
import { Embedder } from "../embeddings/embedder.js"
import { contentChanges, syncedChanges } from "../store/sqlite/projections/content-changes.js"
import { vectorSyncName } from "../retrieval/query-vector.js"
import { Store } from "./store.js"
import { cuesOfMemory, type CueView } from "../store/sqlite/projections/cue-list.js"
import { type ReadFilter } from "../events/log.js"

export interface MemoryView {
  readonly memory: MemoryState
  readonly shortId: string
  readonly evidence: EvidenceState | undefined
}

export interface ListFilter {
  readonly project?: string
  readonly category?: string
  /** Only tentative memories (observed, not yet confirmed) or only confirmed ones. */
  readonly status?: string
  /** Include forgotten and superseded memories. */
  readonly all?: boolean
  readonly limit?: number
}

export interface Stats {
  readonly path: string
  readonly events: number
  readonly memories: { readonly live: number; readonly forgotten: number; readonly superseded: number }
  readonly byCategory: Record<string, number>
  readonly projects: number
  readonly conversations: { readonly total: number; readonly forgotten: number }
  readonly outcomes: { readonly worked: number; readonly failed: number; readonly partial: number }
  /** Live memories with at least one outcome, and those of them the failure gate holds back now. */
  readonly records: { readonly memories: number; readonly gated: number }
  readonly bytes: number
  /** keyword, or hybrid when an embedder is configured; whether its vectors are caught up. */
  readonly search: { readonly mode: "keyword" | "hybrid"; readonly embedder: string; readonly vectorsCurrent: boolean | null }
}

export interface QueriesApi {
  readonly show: (id: string) => Effect.Effect<MemoryView, DomainError>
  readonly list: (filter: ListFilter) => Effect.Effect<MemoryView[]>
  readonly log: (filter: ReadFilter & { readonly memory?: string }) => Effect.Effect<StoredEvent[], DomainError>
  readonly conversations: Effect.Effect<ConversationState[]>
  readonly stats: Effect.Effect<Stats>
  /** A memory's written and learned cues, learned ones with their weight now and their source. */
  readonly cues: (id: string) => Effect.Effect<{ memory: MemoryView; cues: CueView[] }, DomainError>
}

export class Queries extends Context.Tag("memledger/Queries")<Queries, QueriesApi>() {}

export const QueriesLive = Layer.effect(
  Queries,
  Effect.gen(function* () {
    const store = yield* Store
    const embedder = yield* Embedder
    const db = store.db
    const view = (memory: MemoryState): MemoryView => ({
      memory,
      shortId: shortId(db, memory.id),
      evidence: loadEvidence(db, memory.id)
    })
    return {
      show: (id) =>
        Effect.suspend(() => store.read(() => Either.map(resolveMemoryId(db, id), (memoryId) => view(loadOne(memoryId))))),
      list: (filter) => Effect.sync(() => store.read(() => listMemories(filter).map(view))),
      log: (filter) =>
        Effect.suspend(() =>
          store.read(() => {
            const memoryId = filter.memory === undefined ? Either.right(undefined) : resolveMemoryId(db, filter.memory)
            return Either.map(memoryId, (id) => [...readEvents(db, { ...filter, ...(id === undefined ? {} : { memoryId: id }) })])
          })
        ),
      conversations: Effect.sync(() => store.read(() => listConversations(db))),
      stats: Effect.flatMap(Clock.currentTimeMillis, (nowMs) => Effect.sync(() => store.read(() => stats(nowMs)))),
      cues: (id) =>
        Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
          Effect.suspend(() =>
            store.read(() =>
              Either.map(resolveMemoryId(db, id), (memoryId) => {
                const memory = view(loadOne(memoryId))
                return { memory, cues: cuesOfMemory(db, memory.memory, nowMs, store.config) }
              })
            )
          )
        )
    }

    function loadOne(id: string): MemoryState {
      return rowToMemory(db.prepare(`SELECT ${MEMORY_COLUMNS} FROM memories WHERE id = ?`).get(id) as MemoryRow)
    }

    function listMemories(filter: ListFilter): MemoryState[] {
      const where: string[] = []
      const args: unknown[] = []
      if (!filter.all) where.push("forgotten = 0 AND superseded_by IS NULL")
      if (filter.project !== undefined) {
        where.push("(project = ? OR project IS NULL)")
        args.push(filter.project)
      }
      if (filter.category !== undefined) {
        where.push("category = ?")
        args.push(filter.category)
      }
      if (filter.status !== undefined) {
        where.push("status = ?")
        args.push(filter.status)
      }
      const sql = `SELECT ${MEMORY_COLUMNS} FROM memories ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY key DESC LIMIT ?`
      return (db.prepare(sql).all(...args, filter.limit ?? 1000) as MemoryRow[]).map(rowToMemory)
    }

    function records(nowMs: number): Stats["records"] {
      const rows = db
        .prepare("SELECT e.* FROM evidence e JOIN memories m ON m.id = e.memory_id WHERE m.forgotten = 0 AND m.superseded_by IS NULL")
        .all() as Parameters<typeof rowToEvidence>[0][]
      const gated = rows.filter((row) => recordAt(rowToEvidence(row), nowMs, store.config).gated).length
      return { memories: rows.length, gated }
    }

    function stats(nowMs: number): Stats {
      const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n
      const byCategory = Object.fromEntries(
        (db.prepare("SELECT category, count(*) AS n FROM memories WHERE forgotten = 0 AND superseded_by IS NULL GROUP BY category").all() as {
          category: string
          n: number
        }[]).map((r) => [r.category, r.n])
      )
      const outcomes = db
        .prepare("SELECT coalesce(sum(worked_count),0) AS worked, coalesce(sum(failed_count),0) AS failed, coalesce(sum(partial_count),0) AS partial FROM evidence")
        .get() as Stats["outcomes"]
      return {
        path: store.path,
        events: eventCount(db),
        memories: {
          live: count("SELECT count(*) AS n FROM memories WHERE forgotten = 0 AND superseded_by IS NULL"),
          forgotten: count("SELECT count(*) AS n FROM memories WHERE forgotten = 1"),
          superseded: count("SELECT count(*) AS n FROM memories WHERE superseded_by IS NOT NULL AND forgotten = 0")
        },
        byCategory,
        projects: count("SELECT count(DISTINCT project) AS n FROM memories WHERE project IS NOT NULL"),
        conversations: {
          total: count("SELECT count(*) AS n FROM conversations"),
          forgotten: count("SELECT count(*) AS n FROM conversations WHERE forgotten = 1")
        },
        outcomes,
        records: records(nowMs),
        search: {
          mode: embedder.provider === "none" ? "keyword" : "hybrid",
          embedder: embedder.model,
          vectorsCurrent: embedder.provider === "none" ? null : syncedChanges(db, vectorSyncName(embedder.model)) === contentChanges(db)
        },
        bytes: fileSize(store.path) + fileSize(`${store.path}-wal`)
      }
    }
  })
)
