/**
 * The `Queries` service: every read that is not ranking. All run on one snapshot, as `viewer`
 * sees the store (seen-by.ts; none given: the shared memories only).
 */
import { Clock, Context, Effect, Either, Layer } from "effect"
import { Settings } from "../config.js"
import { searchesByKeyword } from "../retrieval/query-vector.js"
import type { DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import type { StoredEvent } from "../events/events.js"
import type { ConversationState } from "../projections/conversation-state.js"
import type { EvidenceState } from "../projections/evidence-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import { Embedder } from "../embeddings/embedder.js"
import { cuesOfMemory, type CueView } from "../projections/cue-list.js"
import { LedgerReader } from "../store/ledger-reader.js"
import type { LedgerReads, StoreCounts } from "../store/ledger-reads.js"
import { StoreMaintenance } from "../store/store-maintenance.js"
import type { ReadFilter } from "../events/log.js"
import type { Viewer } from "../domain/viewer.js"
import { seenBy } from "./seen-by.js"

export interface MemoryView {
  readonly memory: MemoryState
  readonly shortId: string
  readonly evidence: EvidenceState | undefined
}

export interface Stats extends StoreCounts {
  readonly path: string
  readonly bytes: number
  /** keyword, or hybrid when an embedder is configured; whether its vectors are caught up. */
  readonly search: { readonly mode: "keyword" | "hybrid"; readonly embedder: string; readonly vectorsCurrent: boolean | null }
}

export interface QueriesApi {
  readonly show: (id: string, viewer?: Viewer) => Effect.Effect<MemoryView, DomainError>
  readonly log: (filter: ReadFilter & { readonly memory?: string }, viewer?: Viewer) => Effect.Effect<StoredEvent[], DomainError>
  readonly conversations: (viewer?: Viewer) => Effect.Effect<ConversationState[]>
  /** The store's counts, of what `viewer` sees: another person's private memories count nowhere. */
  readonly stats: (viewer?: Viewer) => Effect.Effect<Stats>
  /** A memory's written and learned cues, learned ones with their weight now and their source. */
  readonly cues: (id: string, viewer?: Viewer) => Effect.Effect<{ memory: MemoryView; cues: CueView[] }, DomainError>
}

export class Queries extends Context.Tag("memledger/Queries")<Queries, QueriesApi>() {}

export const makeQueries: Effect.Effect<QueriesApi, never, LedgerReader | StoreMaintenance | Embedder | Settings> = Effect.gen(function* () {
  const reader = yield* LedgerReader
  const store = yield* StoreMaintenance
  const embedder = yield* Embedder
  const config = yield* Settings
  const read = <A>(viewer: Viewer, f: (reads: LedgerReads) => A) => reader.read((reads) => f(seenBy(reads, viewer)))
  return {
    show: (id, viewer = null) => Effect.flatten(read(viewer, (reads) => Either.map(reads.resolveId(id), (memoryId) => viewOf(reads, memoryId)))),
    log: (filter, viewer = null) =>
      Effect.flatten(
        read(viewer, (reads) => {
          const memoryId = filter.memory === undefined ? Either.right(undefined) : reads.resolveId(filter.memory)
          return Either.map(memoryId, (id) => [...reads.events({ ...filter, ...(id === undefined ? {} : { memoryId: id }) })])
        })
      ),
    conversations: (viewer = null) => read(viewer, (reads) => reads.conversations()),
    stats: (viewer = null) =>
      Effect.gen(function* () {
        const nowMs = yield* Clock.currentTimeMillis
        const counts = yield* read(viewer, (reads) => reads.counts(nowMs, config))
        const keyword = searchesByKeyword(embedder, store)
        return {
          ...counts,
          path: store.location,
          bytes: yield* store.bytes,
          search: {
            mode: keyword ? "keyword" : "hybrid",
            embedder: embedder.model,
            vectorsCurrent: keyword ? null : yield* store.vectorsCurrent(embedder.model)
          }
        } as const
      }),
    cues: (id, viewer = null) =>
      Effect.flatMap(Clock.currentTimeMillis, (nowMs) =>
        Effect.flatten(
          read(viewer, (reads) =>
            Either.map(reads.resolveId(id), (memoryId) => {
              const memory = viewOf(reads, memoryId)
              return { memory, cues: cuesOfMemory(reads, memory.memory, nowMs, config) }
            })
          )
        )
      )
  }
})

export const QueriesLive = Layer.effect(Queries, makeQueries)

const view = (reads: LedgerReads, memory: MemoryState): MemoryView => ({
  memory,
  shortId: reads.shortId(memory.id),
  evidence: reads.evidence(memory.id)
})

/** A memory the caller resolved inside the same read: it exists. */
const viewOf = (reads: LedgerReads, id: MemoryId): MemoryView => view(reads, reads.memory(id)!)
