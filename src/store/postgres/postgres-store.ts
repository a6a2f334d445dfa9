/**
 * The PostgreSQL store: one connection to one database behind the ports (the event log, the
 * reader, the maintenance and people's tokens), closed when the layer's scope ends. Any number
 * of processes and servers may open the same database; the write lock and the notices are the
 * database's.
 */
import { Context, Effect, Layer } from "effect"
import { Settings, type LedgerConfig } from "../../config.js"
import { EventLog } from "../event-log.js"
import { LedgerReader } from "../ledger-reader.js"
import type { StoreOpening } from "../opening.js"
import { StoreMaintenance } from "../store-maintenance.js"
import { Tokens } from "../tokens.js"
import { pgTokens } from "./tokens.js"
import { openPgLedger } from "./opening.js"
import { Notices, pgEventLog } from "./pg-event-log.js"
import { pgMaintenance } from "./pg-maintenance.js"
import { readAsOf } from "./time-travel.js"

/** Whether `location` names a PostgreSQL database rather than a file. */
export const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location)

export const PostgresStoreLive = (url: string, config: LedgerConfig, opening: StoreOpening = {}) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const ledger = yield* Effect.acquireRelease(
        Effect.suspend(() => openPgLedger(url, config, opening)),
        (ledger) => Effect.sync(() => ledger.close())
      )
      const notices = yield* Effect.acquireRelease(
        Effect.sync(() => new Notices(url)),
        (notices) => Effect.sync(() => notices.close())
      )
      // One layer, not one a port merged: Effect's building of each layer costs every start.
      return Layer.succeedContext(
        Context.make(EventLog, pgEventLog(ledger, notices)).pipe(
          Context.add(LedgerReader, {
            read: (f) => Effect.sync(() => ledger.read(() => f(ledger.reads))),
            readAt: (untilIso, f) => Effect.sync(() => readAsOf(ledger.db, config, ledger.vectors.kept, untilIso, () => f(ledger.reads)))
          }),
          Context.add(StoreMaintenance, pgMaintenance(ledger)),
          Context.add(Tokens, pgTokens(ledger)),
          Context.add(Settings, config)
        )
      )
    })
  )
