/**
 * A real PostgreSQL for tests: the server postgres-setup.ts settled for this run (see
 * docs/testing.md), and a fresh, empty database per `testPostgres()` call, so tests never see
 * each other's rows and may run in parallel.
 *
 *   describePostgres("the PostgreSQL store", () => {
 *     afterAll(dropTestDatabases)
 *     test("...", async () => { const db = await testPostgres(); ... db.url ... })
 *   })
 *
 * Only MEMLEDGER_TEST_PG=off skips these tests. A server that is missing or unreachable fails
 * them, with the reason, like a missing Chromium fails the browser tests.
 */
import { randomBytes } from "node:crypto"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { Client } from "pg"
import { describe, inject } from "vitest"
import { PROVIDED_KEY } from "./postgres-provided.js"

const provided = inject(PROVIDED_KEY)

/** Why this run skips the PostgreSQL tests, or undefined when they run. */
export const pgSkipReason: string | undefined =
  provided.kind === "off" ? "MEMLEDGER_TEST_PG=off turns the PostgreSQL tests off" : undefined

export const pgAvailable = pgSkipReason === undefined

/** `describe` for tests that need PostgreSQL: skipped only when MEMLEDGER_TEST_PG=off, with a warning that says so. */
export const describePostgres = (name: string, body: () => void): void => {
  if (pgSkipReason !== undefined) console.warn(`skipping "${name}": ${pgSkipReason}`)
  describe.skipIf(!pgAvailable)(name, body)
}

/** The server's URL: a superuser on its `postgres` database. Throws why there is none. */
export const serverUrl = (): string => {
  if (provided.kind === "server") return provided.url
  throw new Error(provided.kind === "missing" ? provided.error : `no PostgreSQL: ${pgSkipReason}`)
}

export interface TestDatabase {
  readonly name: string
  /** Connects as the superuser to this database alone. */
  readonly url: string
  /** Drops the database, ending any connection still open to it; a second call does nothing. */
  readonly drop: () => Promise<void>
}

/** A new, empty database on the test server (template0: nothing a test left in template1 leaks in). */
export const testPostgres = async (): Promise<TestDatabase> => {
  const server = serverUrl()
  const name = `memledger_test_${process.pid}_${++made}_${randomBytes(4).toString("hex")}`
  await onServer(server, `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`)
  let dropped = false
  const database: TestDatabase = {
    name,
    url: withDatabase(server, name),
    drop: async () => {
      if (dropped) return
      dropped = true
      live.delete(database)
      // FORCE (PostgreSQL 13+): a pool a failed test never closed must not keep the database alive.
      await onServer(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
  }
  live.add(database)
  return database
}

/** Drops every database this test file made and has not dropped yet: `afterAll(dropTestDatabases)`. */
export const dropTestDatabases = async (): Promise<void> => {
  for (const database of [...live]) await database.drop()
}

/** Whether `CREATE EXTENSION vector` can work on the server: pgvector is in its extension folder. */
export const vectorAvailable = async (url: string = serverUrl()): Promise<boolean> => {
  const rows = await onServer(url, "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")
  return rows.length === 1
}

/**
 * Whether any file of the database at `url` holds `text`, once a CHECKPOINT has written every
 * changed page: for tests of what purge erases, as SQLite's scan the bytes of the store's file.
 * Reads the server's data directory, so only where it is on this machine (the cluster a run
 * starts); undefined elsewhere. The WAL is not scanned: what purge cannot reach is listed in
 * docs/privacy.md.
 */
export const databaseFilesHold = async (url: string, text: string): Promise<boolean | undefined> => {
  const client = new Client({ connectionString: url })
  await client.connect()
  let folder: string
  try {
    await client.query("CHECKPOINT")
    const { rows } = await client.query<{ dir: string; oid: number }>(
      "SELECT current_setting('data_directory') AS dir, oid FROM pg_database WHERE datname = current_database()"
    )
    folder = join(rows[0]!.dir, "base", String(rows[0]!.oid))
  } finally {
    await client.end()
  }
  if (!existsSync(folder)) return undefined
  return readdirSync(folder).some((name) => {
    const file = join(folder, name)
    return statSync(file).isFile() && readFileSync(file).includes(text)
  })
}

let made = 0
const live = new Set<TestDatabase>()

const withDatabase = (server: string, name: string): string => {
  const url = new URL(server)
  url.pathname = `/${name}`
  return url.toString()
}

const onServer = async (url: string, sql: string): Promise<unknown[]> => {
  const client = new Client({ connectionString: url })
  await client.connect().catch((cause: Error) => {
    throw new Error(`cannot reach the test PostgreSQL at ${url}: ${cause.message}`, { cause })
  })
  try {
    return (await client.query(sql)).rows
  } finally {
    await client.end()
  }
}
