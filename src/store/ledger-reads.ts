/**
 * What the domain reads from a store, over one consistent snapshot: the projections (memories,
 * evidence, cues, conversations), the log, and the candidate queries ranking starts from.
 * Deciders, ranking and queries take these values; none of them sees a connection.
 *
 * The reads are synchronous because a unit of work (a ranking, a decision under the write lock)
 * runs inside one transaction of its store and reads as it goes. The SQLite store answers them
 * from its connection; a store whose client is asynchronous answers them with its driver's
 * synchronous calls inside that transaction, or loads what a unit needs before it runs.
 */
import type { Either } from "effect"
import type { LedgerConfig } from "../config.js"
import type { AmbiguousId, InvalidId, MemoryNotFound } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import type { Scope as Place } from "../domain/vocabulary.js"
import type { StoredEvent } from "../events/events.js"
import type { LogHead, ReadFilter } from "../events/log.js"
import type { ConsoleReads } from "./console-reads.js"
import type { ConversationState } from "../projections/conversation-state.js"
import type { LearnedCueRow } from "../projections/cue-state.js"
import type { EvidenceState } from "../projections/evidence-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import type { Candidate, KeywordCandidates, QueryVector, Scope } from "../retrieval/candidate.js"
import type { DocumentFrequency } from "../retrieval/coverage.js"
import type { RankFields } from "../retrieval/rank.js"
import type { Viewer } from "../domain/viewer.js"

/** The counts `stats` reports, as the projections hold them now, of what one reader sees. */
export interface StoreCounts {
  readonly events: number
  readonly memories: { readonly live: number; readonly forgotten: number; readonly superseded: number }
  readonly byCategory: Record<string, number>
  readonly projects: number
  readonly conversations: { readonly total: number; readonly forgotten: number }
  readonly outcomes: { readonly worked: number; readonly failed: number; readonly partial: number }
  /** Live memories with at least one outcome, and those of them the failure gate holds back now. */
  readonly records: { readonly memories: number; readonly gated: number }
}

export interface MemoryReads {
  readonly memory: (id: MemoryId) => MemoryState | undefined
  readonly memoriesByKey: (keys: ReadonlyArray<number>) => Map<number, MemoryState>
  /** A typed id or unique prefix of 6 or more characters, as a memory's id. */
  readonly resolveId: (typed: string) => Either.Either<MemoryId, InvalidId | MemoryNotFound | AmbiguousId>
  /** The shortest prefix no other memory shares, never under 8 characters. */
  readonly shortId: (id: string) => string
  /** Each id's shortId, by id: a search's ten at once. */
  readonly shortIds: (ids: ReadonlyArray<string>) => ReadonlyMap<string, string>
  /**
   * Whom each memory among `ids` is private to (null: shared), in one read: who may see the
   * events that name them (services/seen-by.ts). A memory no projection holds is not in the map.
   */
  readonly ownersOf: (ids: ReadonlyArray<string>) => ReadonlyMap<string, string | null>
  /**
   * Live memories of the project and global ones that are not instruction-like: what a context
   * without a query offers. Here and below, `viewer` says whose private memories count besides
   * the shared ones (domain/viewer.ts); without one, none do.
   */
  readonly offeredUnasked: (project: string | null, viewer?: Viewer) => MemoryState[]
  /** The live memory, if any, whose normalised text equals `contentKey` in that scope and project. */
  readonly restatementOf: (contentKey: string, scope: Place, project: string | null, viewer?: Viewer) => MemoryState | undefined
  readonly evidence: (id: string) => EvidenceState | undefined
  readonly evidenceOf: (ids: ReadonlyArray<string>) => Map<string, EvidenceState>
  /** Learned cues by memory, strongest (as anchored) first. */
  readonly learnedCues: (ids: ReadonlyArray<string>) => Map<string, LearnedCueRow[]>
  readonly conversation: (origin: string) => ConversationState | undefined
  readonly conversations: () => ConversationState[]
  readonly forgottenOrigins: () => ReadonlySet<string>
  /** Another person's private memories, and what the reader's log and conversations leave out with them, count nowhere. */
  readonly counts: (nowMs: number, config: LedgerConfig, viewer?: Viewer) => StoreCounts
}

export interface LogReads {
  /** In sequence order (newest first when asked); lazily, so a long read streams. */
  readonly events: (filter: ReadFilter) => Iterable<StoredEvent>
  readonly head: () => LogHead
  /** Whether the conversation already gave a memory from this span (a capture key, events/capture.ts). */
  readonly captureKeyInLog: (origin: string, span: string) => boolean
}

/** The candidate queries: matches in scope with their raw signals, ranked by shared code. */
export interface CandidateReads {
  /** The `count` best keyword matches in scope for each phrasing, by text and by learned cue. */
  readonly keywordCandidates: (
    phrasings: ReadonlyArray<string>,
    scope: Scope,
    limit: number,
    config: LedgerConfig,
    nowMs: number,
    count?: number
  ) => KeywordCandidates
  /**
   * A hint that `addVectorCandidates` will be asked for `query` in `scope`: a store may start
   * its nearest-neighbour search now, to run beside the reads in between.
   */
  readonly prefetchNeighbours: (query: QueryVector, scope: Scope, limit: number, config: LedgerConfig) => void
  /** The candidates' cosines, and the nearest live memories in scope by vector, by their own or a learned cue's (store/vector-reads.ts). */
  readonly addVectorCandidates: (
    found: Map<number, Candidate<RankFields>>,
    query: QueryVector,
    scope: Scope,
    limit: number,
    config: LedgerConfig,
    nowMs: number
  ) => Map<number, Candidate<RankFields>>
  readonly cosineBetween: (model: string, keyA: number, keyB: number) => number | undefined
  readonly documentFrequency: () => DocumentFrequency
  /** Keyword matches that are not candidates (dead, another category, another scope), for `why`. */
  readonly keywordMatchesOutside: (query: string, scope: Scope) => MemoryState[]
  /** The `count` best keyword matches among live memories of the project and global ones. */
  readonly keywordNeighbours: (content: string, project: string | null, count: number, viewer?: Viewer) => MemoryState[]
  /** The `count` nearest live memories of the project and global ones, with their cosines. */
  readonly vectorNeighbours: (vector: QueryVector, project: string | null, count: number, viewer?: Viewer) => Array<{ memory: MemoryState; cosine: number }>
}

export interface LedgerReads extends MemoryReads, LogReads, CandidateReads, ConsoleReads {}
