/**
 * Reads of a store's projections and log, as a port: `read` runs a unit of reads on one
 * consistent snapshot, so a ranking or a listing never sees half of another process's write;
 * `readAt` runs it on the store as it was at a past moment (`why --at`).
 */
import { Context, type Effect } from "effect"
import type { LedgerReads } from "./ledger-reads.js"

export interface LedgerReaderApi {
  readonly read: <A>(f: (reads: LedgerReads) => A) => Effect.Effect<A>
  /** The same reads over the events recorded up to `untilIso`, every projection folded from them. */
  readonly readAt: <A>(untilIso: string, f: (reads: LedgerReads) => A) => Effect.Effect<A>
}

export class LedgerReader extends Context.Tag("memledger/LedgerReader")<LedgerReader, LedgerReaderApi>() {}
