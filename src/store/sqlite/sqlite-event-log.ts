/**
 * The event-log port on SQLite: writes run in BEGIN IMMEDIATE on the store's connection; other
 * processes' appends are found by looking at the log's head (SQLite has no notifications).
 */
import { Chunk, Effect, Option, Stream } from "effect"
import { EMPTY_LOG } from "../../events/log.js"
import type { EventLogApi } from "../event-log.js"
import { lastEvent, readEvents } from "./event-log.js"
import type { LedgerStore } from "./ledger-store.js"

/** How often a subscription looks at the log's head when nothing new came: at most twice a second. */
export const SUBSCRIBE_POLL_MS = 500
/** Events a subscription reads at a time, so a long backlog streams in pieces. */
const SUBSCRIBE_PAGE = 500

export const sqliteEventLog = (store: LedgerStore): EventLogApi => ({
  write: (f) => Effect.suspend(() => store.write(f)),
  writeSoon: (f) => Effect.flatten(Effect.promise(() => store.writeSoon(f))),
  read: (filter) => Effect.sync(() => store.read((db) => [...readEvents(db, filter)])),
  head: Effect.sync(() => store.read((db) => lastEvent(db) ?? EMPTY_LOG)),
  subscribe: (afterSeq, pollMs = SUBSCRIBE_POLL_MS) =>
    Stream.unfoldChunkEffect(afterSeq, (after) =>
      Effect.gen(function* () {
        const events = store.read((db) => [...readEvents(db, { after, limit: SUBSCRIBE_PAGE })])
        if (events.length === 0) yield* Effect.sleep(pollMs)
        return Option.some([Chunk.unsafeFromArray(events), events.at(-1)?.seq ?? after] as const)
      })
    )
})
