/**
 * The services in-process over a real store, with the clock fixed wherever a test says, so
 * decay and recency are exact. A test written once runs on every store the composition root
 * can open: `describeEachStore((store) => ...)` runs its body once per store in SERVICE_STORES,
 * each test taking a new, empty store from `store.fresh()` (a SQLite file, or a new database on
 * the test's PostgreSQL, test/support/postgres.ts), which `runAt` opens by its location as
 * `mem --db` does.
 */
import { join } from "node:path"
import { Clock, Effect, ManagedRuntime } from "effect"
import { afterAll, describe } from "vitest"
import { DEFAULT_CONFIG, type LedgerConfig } from "../../src/config.js"
import { CLI_ACTOR } from "../../src/commands/actor.js"
import { LocalOperationsLayer } from "../../src/services/app.js"
import { Commands } from "../../src/services/commands.js"
import type { Console } from "../../src/services/console.js"
import { Maintenance } from "../../src/services/maintenance.js"
import { Queries } from "../../src/services/queries.js"
import { Retrieval } from "../../src/services/retrieval.js"
import { Operations } from "../../src/api/operations.js"
import { Tasks } from "../../src/services/tasks.js"
import { tempDir } from "./cli.js"
import { dropTestDatabases, pgAvailable, testPostgres } from "./postgres.js"

export const DAY = 86_400_000
export const T0 = Date.parse("2026-01-01T00:00:00.000Z")

/** Time stands still at `ms`; sleeping (timeouts) still takes real time. */
export const fixedClock = (ms: number): Clock.Clock => ({
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  currentTimeMillis: Effect.succeed(ms),
  currentTimeNanos: Effect.succeed(BigInt(ms) * 1_000_000n),
  unsafeCurrentTimeMillis: () => ms,
  unsafeCurrentTimeNanos: () => BigInt(ms) * 1_000_000n,
  sleep: (duration) => realClock.sleep(duration)
})

const realClock = Clock.make()

type Services = Commands | Queries | Maintenance | Retrieval | Tasks | Console | Operations

/** Runs `program` against the store at `dbPath` (a file or a postgres:// URL) with the clock at `atMs`. */
export const runAt = <A, E>(dbPath: string, atMs: number, program: Effect.Effect<A, E, Services>, config: LedgerConfig = DEFAULT_CONFIG): Promise<A> =>
  Effect.runPromise(Effect.scoped(program.pipe(Effect.withClock(fixedClock(atMs)), Effect.provide(LocalOperationsLayer(dbPath, config)))))

/**
 * The services over one store kept open between calls, as a server keeps it: for a test that
 * asks one store many questions, where opening it for each (`runAt`) would be most of the work.
 */
export const openServices = (dbPath: string, config: LedgerConfig = DEFAULT_CONFIG) => {
  const runtime = ManagedRuntime.make(LocalOperationsLayer(dbPath, config))
  return {
    runAt: <A, E>(atMs: number, program: Effect.Effect<A, E, Services>): Promise<A> =>
      runtime.runPromise(Effect.scoped(program.pipe(Effect.withClock(fixedClock(atMs))))),
    close: (): Promise<void> => runtime.dispose()
  }
}

export const freshDb = (): string => join(tempDir(), "m.db")

/** A store the service tests run on. */
export interface ServiceStore {
  readonly name: "SQLite" | "PostgreSQL"
  /** Where a new, empty store is: a file's path, or the URL of a new database. */
  readonly fresh: () => Promise<string>
  /** Drops what `fresh` made that outlives the test's process (databases; files stay in the temporary folder). */
  readonly cleanup: () => Promise<void>
  /**
   * How many of a property test's `runs` to make here. PostgreSQL gets a third: every statement
   * is a loopback round trip (sync-client.ts) and each store a new database, so a run costs ten
   * times SQLite's, while what a property holds to is mostly above the port and runs in full on SQLite.
   */
  readonly propertyRuns: (runs: number) => number
}

export const sqliteServices: ServiceStore = { name: "SQLite", fresh: async () => freshDb(), cleanup: async () => {}, propertyRuns: (runs) => runs }

export const postgresServices: ServiceStore = {
  name: "PostgreSQL",
  fresh: async () => (await testPostgres()).url,
  cleanup: dropTestDatabases,
  propertyRuns: (runs) => Math.ceil(runs / 3)
}

/** Every store the services run on; PostgreSQL unless MEMLEDGER_TEST_PG=off (test/contracts/stores.ts lists the same). */
export const SERVICE_STORES: ReadonlyArray<ServiceStore> = pgAvailable ? [sqliteServices, postgresServices] : [sqliteServices]

/** `body` once per store, each in a `describe` named after it that drops the store's databases at its end. */
export const describeEachStore = (body: (store: ServiceStore) => void): void => {
  for (const store of SERVICE_STORES) {
    describe(store.name, () => {
      afterAll(store.cleanup)
      body(store)
    })
  }
}

/** A program writing, as an agent or a script would: what it writes alone is never a rule. */
export const actor = { origin: "test", agent: "test" }
/** A person at the command line (domain/vouching.ts): what it writes may be a rule. */
export const person = CLI_ACTOR

export { Commands, Maintenance, Operations, Queries, Retrieval, Tasks }
