/**
 * What moving a log in needs of a store, whatever it is: a write under its lock with raw
 * appends (an export's rows, hashes kept), whether an event is already in the log, the log's
 * length, and a rebuild of every projection inside the same write.
 */
import type { Either } from "effect"
import type { StoredEvent } from "../../events/events.js"
import type { RawEvent } from "../../events/log.js"
import type { WriteUnit } from "../event-log.js"

export interface TransferTx extends WriteUnit {
  readonly appendRaw: (rows: ReadonlyArray<RawEvent>) => StoredEvent[]
  /** Appends without projecting: a replay appends the whole log, then rebuilds once. */
  readonly appendLogOnly: (rows: ReadonlyArray<RawEvent>) => StoredEvent[]
  readonly hasEvent: (id: string) => boolean
  readonly eventCount: () => number
  readonly rebuild: () => { events: number }
}

export interface LogWriter {
  /** Where the store is, as errors name it. */
  readonly location: string
  readonly write: <A, E>(f: (tx: TransferTx) => Either.Either<A, E>) => Either.Either<A, E>
}
