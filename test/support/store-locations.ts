/**
 * Where a test may make a fresh store of each kind, by the location the composition root reads
 * (services/app.ts): a new SQLite file, and a new PostgreSQL database unless
 * MEMLEDGER_TEST_PG=off. A test file that uses it calls `dropTestDatabases` after its tests.
 */
import { join } from "node:path"
import { tempDir } from "./cli.js"
import { pgAvailable, testPostgres } from "./postgres.js"

export type StoreLocation = readonly [name: string, make: () => Promise<string>]

export const STORE_LOCATIONS: ReadonlyArray<StoreLocation> = [
  ["SQLite", async () => join(tempDir(), "m.db")],
  ...(pgAvailable ? [["PostgreSQL", async () => (await testPostgres()).url] as const] : [])
]
