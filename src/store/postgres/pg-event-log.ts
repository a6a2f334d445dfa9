/**
 * The event-log port on PostgreSQL. Each write sends a notice on commit (NOTIFY, which
 * PostgreSQL delivers only when the transaction commits, to every listening session of any
 * server); a subscription waits on those notices, so an event another process appends reaches
 * it at once, and looks at the log's head every `pollMs` anyway, in case a notice was missed
 * while its connection was being made.
 */
import { Chunk, Effect, Option, Stream } from "effect"
import { createRequire } from "node:module"
import type pg from "pg"
import { EMPTY_LOG } from "../../events/log.js"
import type { EventLogApi } from "../event-log.js"
import { lastEvent, readEvents } from "./event-log.js"
import type { PgLedger } from "./pg-ledger.js"
import { NOTICE_CHANNEL } from "./schema.js"

const SUBSCRIBE_POLL_MS = 500
const SUBSCRIBE_PAGE = 500

export const pgEventLog = (ledger: PgLedger, notices: Notices): EventLogApi => {
  return {
    write: (f) => Effect.suspend(() => ledger.write(f)),
    writeSoon: (f) => Effect.suspend(() => ledger.write(f)),
    read: (filter) => Effect.sync(() => ledger.read((db) => [...readEvents(db, filter)])),
    head: Effect.sync(() => ledger.read((db) => lastEvent(db) ?? EMPTY_LOG)),
    subscribe: (afterSeq, pollMs = SUBSCRIBE_POLL_MS) =>
      Stream.unfoldChunkEffect(afterSeq, (after) =>
        Effect.gen(function* () {
          const events = ledger.read((db) => [...readEvents(db, { after, limit: SUBSCRIBE_PAGE })])
          if (events.length === 0) yield* Effect.promise(() => notices.next(pollMs))
          return Option.some([Chunk.unsafeFromArray(events), events.at(-1)?.seq ?? after] as const)
        })
      )
  }
}

/** One LISTEN connection per store, made on the first subscription: a wait ends at a notice or after `ms`. */
export class Notices {
  private client: Promise<pg.Client | undefined> | undefined
  private waiting = new Set<() => void>()

  constructor(private readonly url: string) {}

  next(ms: number): Promise<void> {
    this.client ??= this.listen()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiting.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.waiting.add(done)
    })
  }

  close(): void {
    void this.client?.then((client) => client?.end().catch(() => {}))
    this.client = undefined
  }

  private async listen(): Promise<pg.Client | undefined> {
    const { Client } = createRequire(import.meta.url)("pg") as typeof pg
    const client = new Client({ connectionString: this.url })
    client.on("error", () => {
      this.client = undefined
    })
    client.on("notification", () => {
      for (const wake of [...this.waiting]) wake()
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${NOTICE_CHANNEL}`)
      // Not a reason to keep the process alive: a subscription that is waiting polls anyway.
      ;(client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.()
      return client
    } catch {
      this.client = undefined
      return undefined
    }
  }
}
