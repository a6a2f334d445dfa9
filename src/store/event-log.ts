/**
 * The event log, as a port: every write decides on the current state and appends what it
 * decided, with the projections' writes, in one transaction under the store's write lock; reads
 * of the log by range and filter; its head; and the events appended after a point, as they come.
 * Each store implements it and passes the event-log contract (test/core/event-log.contract.ts).
 */
import { Context, type Effect, type Either, type Stream } from "effect"
import type { DecisionState } from "../commands/state.js"
import type { StoredEvent } from "../events/events.js"
import type { LogHead, NewEvent, ReadFilter } from "../events/log.js"
import type { LedgerReads } from "./ledger-reads.js"

/** What a write sees and does, inside its transaction. */
export interface WriteUnit {
  /** The projections as this transaction has them so far: what its deciders read. */
  readonly state: DecisionState
  readonly reads: LedgerReads
  /** Appends after the log's head and applies the projections; kept only if the write commits. */
  readonly append: (events: ReadonlyArray<NewEvent>) => StoredEvent[]
}

export interface EventLogApi {
  /**
   * Runs `f` under the write lock. If it returns a Left (a domain error) or throws, nothing it
   * appended is kept.
   */
  readonly write: <A, E>(f: (unit: WriteUnit) => Either.Either<A, E>) => Effect.Effect<A, E>
  /**
   * `write` for what may wait for the next turn of the event loop (the record of what a search
   * showed): writes asked for in one turn may commit together. Answers once committed.
   */
  readonly writeSoon: <A, E>(f: (unit: WriteUnit) => Either.Either<A, E>) => Effect.Effect<A, E>
  /** Events in sequence order (newest first when asked). */
  readonly read: (filter: ReadFilter) => Effect.Effect<StoredEvent[]>
  readonly head: Effect.Effect<LogHead>
  /**
   * Every event appended after `afterSeq`, by any process, in order, as it arrives. A store
   * without notifications looks at the log's head every `pollMs`.
   */
  readonly subscribe: (afterSeq: number, pollMs?: number) => Stream.Stream<StoredEvent>
}

export class EventLog extends Context.Tag("memledger/EventLog")<EventLog, EventLogApi>() {}
