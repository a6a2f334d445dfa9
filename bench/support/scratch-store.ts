/**
 * Where a benchmark's fresh store lives: a SQLite file in a temporary folder, or, with
 * `--pg URL` (a server URL whose role may create databases), a new database on that server,
 * dropped afterwards. The same services run on either (src/services/app.ts picks the store).
 */
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"

export interface ScratchStore {
  /** What `--db` would be: a file path or a postgres:// URL. */
  readonly location: string
  readonly remove: () => Promise<void>
}

/** The `--pg URL` of this process's command line, if any. */
export const pgServerArg = (argv: ReadonlyArray<string> = process.argv): string | undefined => {
  const at = argv.indexOf("--pg")
  return at < 0 ? undefined : argv[at + 1]
}

export const scratchStore = async (name: string, server = pgServerArg()): Promise<ScratchStore> => {
  if (server === undefined) {
    const dir = mkdtempSync(join(tmpdir(), `memledger-${name}-`))
    return { location: join(dir, "bench.db"), remove: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  const database = `memledger_bench_${name.replace(/\W/g, "_")}_${randomBytes(4).toString("hex")}`
  await onServer(server, `CREATE DATABASE ${database}`)
  const url = new URL(server)
  url.pathname = `/${database}`
  return { location: url.toString(), remove: () => onServer(server, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`) }
}

const onServer = async (server: string, sql: string): Promise<void> => {
  const client = new pg.Client({ connectionString: server })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}
