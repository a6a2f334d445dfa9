/**
 * The store as it was at a moment: the events recorded up to then, with every projection
 * rebuilt from them in a store in memory. `why --at` ranks there, with the same code as now.
 *
 * When those events are the log's first S (a log's times only go back where an import or a
 * skewed clock put them), the past store folds them straight from the file: its `events` and
 * `event_memories` are views of the file's first S rows, so nothing is copied and no hash is
 * computed again, and its projections are what a replay of those rows would build (the replay
 * numbers and chains them as they already are). Otherwise the events up to then are replayed,
 * numbered anew, into the past store (`replayUntil`), as every past store once was.
 *
 * Nothing of a past store is kept on disk. The last one is kept in memory while the moment asked
 * for ends at the same event and no purge has erased anything since (`PastStores`), so the
 * console asking about one moment again, or with another query, reads it at once. A later
 * moment moves it on (`advancePrefix`): the events between are applied as appends apply them,
 * which costs what those events cost, not what the whole prefix does.
 */
import { Either } from "effect"
import type { LedgerConfig } from "../../config.js"
import { appendRaw, readEvents, readRows } from "./event-log.js"
import { openProjectionSession } from "./projections/projector.js"
import { rebuildProjections } from "./projections/rebuild.js"
import { LedgerStore } from "./ledger-store.js"
import type { Db } from "./database.js"

/**
 * Moving a past store on applies each event as an append does, reading and writing the rows it
 * touches: 9 to 17 times what folding it costs (bench/past-store.ts `advance`: 160 to 190
 * against 18 to 22 µs an event at 200,000 events, 465 against 28 at 1,000,000). Beyond a
 * twentieth of the new prefix, a new fold is as cheap or cheaper.
 */
const ADVANCE_SHARE = 0.05

/** Events applied to a moved-on past store at a time: read whole, as a statement still reading would block the writes. */
const ADVANCE_BATCH = 5_000

/** The past stores a reader asks for, the last kept while it still stands for its moment. */
export class PastStores {
  private kept: { readonly past: LedgerStore; end: number; purged: number; untilIso: string; moment: Moment } | undefined

  /** `advanceShare`: how much of a new prefix the kept store may move on over (tests move it always). */
  constructor(
    private readonly store: LedgerStore,
    private readonly advanceShare = ADVANCE_SHARE
  ) {}

  /** Runs `f` on the store as it was at `untilIso`. */
  read<A>(untilIso: string, f: (past: LedgerStore) => A): A {
    const known = this.kept?.untilIso === untilIso ? this.kept.moment : undefined
    const moment = this.store.read((db) => momentOf(db, untilIso, known))
    if (moment.end === undefined || this.store.path === ":memory:") {
      const past = replayUntil(this.store, untilIso)
      try {
        return f(past)
      } finally {
        past.close()
      }
    }
    const kept = this.keptFor(moment.end, moment.purged)
    Object.assign(kept, { untilIso, moment })
    // One snapshot of the file for all of `f`'s reads of the log.
    return kept.past.db.transaction(() => f(kept.past))()
  }

  /**
   * The kept past store, moved on to the log's first `end` events when it ends before them, or a
   * new one. A purge erases payloads, which every conversation's count of purged events then
   * holds: a past store folded before it is neither read nor moved on again.
   */
  private keptFor(end: number, purged: number) {
    const kept = this.kept
    if (kept !== undefined && kept.purged === purged && kept.end <= end && end - kept.end <= end * this.advanceShare) {
      try {
        if (kept.end < end) advancePrefix(kept.past, this.store.config, kept.end, end)
      } catch (error) {
        // Its views already end at `end`, its projections where they were: not to be read again.
        this.close()
        throw error
      }
      kept.end = end
      return kept
    }
    this.close()
    this.kept = { past: foldedPrefix(this.store, end), end, purged, untilIso: "", moment: { end, purged, head: end } }
    return this.kept
  }

  close(): void {
    this.kept?.past.close()
    this.kept = undefined
  }
}

/** Where a moment's events end in the log, as `momentOf` found it. */
export interface Moment {
  /** The moment's events are the log's first `end`; undefined when a later one was recorded before it. */
  readonly end: number | undefined
  /** How many events purges have erased. */
  readonly purged: number
  /** The log's last event when it was found. */
  readonly head: number
}

/**
 * Where the events recorded up to `untilIso` end. Reads the events after the moment, by their
 * time; or, given what an earlier look at the same moment found, only the events appended since,
 * which leave a moment's end where it was unless one of them was recorded before it.
 */
export const momentOf = (db: Db, untilIso: string, known?: Moment): Moment => {
  const head = (db.prepare("SELECT coalesce(max(seq), 0) AS n FROM events").get() as { n: number }).n
  const purged = (db.prepare("SELECT coalesce(sum(purged_events), 0) AS n FROM conversations").get() as { n: number }).n
  if (known?.end !== undefined && head >= known.head) {
    // `+recorded_at`: by the time index, SQLite would read every event up to the moment.
    const late = db.prepare("SELECT 1 FROM events WHERE seq > ? AND +recorded_at <= ? LIMIT 1").get(known.head, untilIso)
    if (late === undefined) return { end: known.end, purged, head }
  }
  const after = db.prepare("SELECT count(*) AS n, min(seq) AS first FROM events WHERE recorded_at > ?").get(untilIso) as { n: number; first: number | null }
  const end = after.first === null ? head : after.first - 1
  return { end: after.n === head - end ? end : undefined, purged, head }
}

/** The reference: the events up to then appended anew, numbered and chained, into a store in memory. */
export const replayUntil = (store: LedgerStore, untilIso: string): LedgerStore => {
  // An in-memory database has no file to be damaged or foreign, so opening it cannot fail.
  const past = Either.getOrThrow(LedgerStore.open(":memory:", store.config))
  const rows = store.read((db) => [...readRows(db, { until: untilIso })])
  past.writeOrThrow((tx) => {
    appendRaw(
      tx.db,
      rows.map((r) => ({
        id: r.id,
        type: r.type,
        version: r.version,
        recordedAt: r.recorded_at,
        origin: r.origin,
        agent: r.agent,
        ...(r.author === null ? {} : { author: r.author }),
        payload: r.payload,
        payloadHash: r.payload_hash
      }))
    )
    rebuildProjections(tx.db, store.config)
  })
  return past
}

/**
 * A store in memory whose log is the file's first `end` events, read in place (the file attached
 * to its connection, its log's tables views of those rows) and whose projections are folded from
 * them. Its own log tables are dropped: the views in the temporary schema are what its reads find.
 */
export const foldedPrefix = (store: LedgerStore, end: number): LedgerStore => {
  const past = Either.getOrThrow(LedgerStore.open(":memory:", store.config))
  const db = past.db
  db.prepare("ATTACH DATABASE ? AS file").run(store.path)
  db.exec("DROP TABLE events; DROP TABLE event_memories;")
  viewPrefix(db, end)
  // A deferred transaction: reading the file takes no lock a writer of it would wait for.
  db.transaction(() => rebuildProjections(db, store.config))()
  return past
}

/** Moves a past store folded from the log's first `from` events on to its first `end`. */
export const advancePrefix = (past: LedgerStore, config: LedgerConfig, from: number, end: number): void => {
  const db = past.db
  viewPrefix(db, end)
  db.transaction(() => {
    const session = openProjectionSession(db, config)
    for (let after = from; after < end; ) {
      const batch = [...readEvents(db, { after, limit: ADVANCE_BATCH })]
      if (batch.length === 0) break
      session.apply(batch)
      after = batch[batch.length - 1]!.seq
    }
    session.finish()
  })()
}

/** The past store's log: views of the attached file's first `end` events. */
const viewPrefix = (db: Db, end: number): void => {
  const last = Math.trunc(end)
  db.exec(`
    DROP VIEW IF EXISTS temp.events;
    DROP VIEW IF EXISTS temp.event_memories;
    CREATE TEMP VIEW events AS SELECT * FROM file.events WHERE seq <= ${last};
    CREATE TEMP VIEW event_memories AS SELECT * FROM file.event_memories WHERE seq <= ${last};
  `)
}
