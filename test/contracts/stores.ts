/**
 * The stores the contracts run against, each opened as its ports (`EventLog`, `LedgerReader`)
 * on a fresh, empty store, plus the one thing a contract needs below the ports: a way to change
 * stored rows behind the log's back, which the store must refuse. A second store adds itself
 * here and passes every contract in this folder.
 */
import { join } from "node:path"
import { Effect, Either, ManagedRuntime } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../../src/config.js"
import { EventLog, type EventLogApi } from "../../src/store/event-log.js"
import { LedgerReader, type LedgerReaderApi } from "../../src/store/ledger-reader.js"
import { StoreMaintenance, type StoreMaintenanceApi } from "../../src/store/store-maintenance.js"
import { SqliteStore, SqliteStoreLive } from "../../src/store/sqlite/sqlite-store.js"
import { PostgresStoreLive } from "../../src/store/postgres/postgres-store.js"
import { pgAvailable, testPostgres } from "../support/postgres.js"
import { makeTempDir, removeDir } from "../support/temp-store.js"
import { Client } from "pg"
import type { EventLogUnderTest } from "./event-log.contract.js"

export interface PortsUnderTest {
  readonly log: EventLogApi
  readonly reader: LedgerReaderApi
  /** The store's own work; the contracts ask it to keep an embedder's vectors. */
  readonly maintenance: StoreMaintenanceApi
  readonly run: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>
  readonly tamper: EventLogUnderTest["tamper"]
  readonly close: () => Promise<void>
}

export interface StoreUnderTest {
  readonly name: string
  readonly open: (config?: LedgerConfig) => Promise<PortsUnderTest>
}

export const sqliteStore: StoreUnderTest = {
  name: "SQLite",
  open: async (config = DEFAULT_CONFIG) => {
    const dir = makeTempDir()
    const runtime = ManagedRuntime.make(SqliteStoreLive(join(dir, "ledger.db"), config))
    const [log, reader, maintenance, store] = await runtime.runPromise(Effect.all([EventLog, LedgerReader, StoreMaintenance, SqliteStore]))
    const sql = (text: string, ...args: unknown[]) => async () => void store.db.prepare(text).run(...args)
    return {
      log,
      reader,
      maintenance,
      run: (effect) => runtime.runPromise(effect),
      tamper: {
        setPayload: (seq, payload) => sql("UPDATE events SET payload = ? WHERE seq = ?", payload, seq)(),
        setColumn: (seq, column, value) => sql(`UPDATE events SET ${column} = ? WHERE seq = ?`, value, seq)(),
        remove: (seq) => sql("DELETE FROM events WHERE seq = ?", seq)()
      },
      close: async () => {
        await runtime.dispose()
        removeDir(dir)
      }
    }
  }
}

/** A fresh database on the test server for each store opened (test/support/postgres.ts). */
export const postgresStore: StoreUnderTest = {
  name: "PostgreSQL",
  open: async (config = DEFAULT_CONFIG) => {
    const database = await testPostgres()
    const runtime = ManagedRuntime.make(PostgresStoreLive(database.url, config))
    const [log, reader, maintenance] = await runtime.runPromise(Effect.all([EventLog, LedgerReader, StoreMaintenance]))
    const sql = async (text: string, ...args: unknown[]) => {
      const client = new Client({ connectionString: database.url })
      await client.connect()
      try {
        await client.query(text, args)
      } finally {
        await client.end()
      }
    }
    return {
      log,
      reader,
      maintenance,
      run: (effect) => runtime.runPromise(effect),
      tamper: {
        setPayload: (seq, payload) => sql("UPDATE events SET payload = $1 WHERE seq = $2", payload, seq),
        setColumn: (seq, column, value) => sql(`UPDATE events SET ${column} = $1 WHERE seq = $2`, value, seq),
        remove: (seq) => sql("DELETE FROM events WHERE seq = $1", seq)
      },
      close: async () => {
        await runtime.dispose()
        await database.drop()
      }
    }
  }
}

/** Every store the contracts hold to the same answers; PostgreSQL unless MEMLEDGER_TEST_PG=off. */
export const STORES: ReadonlyArray<StoreUnderTest> = pgAvailable ? [sqliteStore, postgresStore] : [sqliteStore]

/** The event-log contract's view of a store: whole write transactions and reads, through the port. */
export const eventLogOf = (ports: PortsUnderTest): EventLogUnderTest => ({
  write: (f) => ports.run(ports.log.write((unit) => Either.right(f(unit.append)))),
  read: (filter = {}) => ports.run(ports.log.read(filter)),
  tamper: ports.tamper,
  close: ports.close
})
