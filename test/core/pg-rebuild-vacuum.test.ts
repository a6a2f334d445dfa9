/**
 * A rebuild on PostgreSQL writes every projection row anew, and until the tables are vacuumed a
 * search's index-only reads of the keyword index visit the table too: searches after a rebuild
 * cost half as much again until autovacuum comes round. So `rebuild`, `replay` and the rebuild
 * made at opening (a new database, or an upgrade) vacuum the tables they wrote.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, expect, it } from "vitest"
import { Client } from "pg"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { LocalOperationsLayer } from "../../src/services/app.js"
import { describePostgres, dropTestDatabases, testPostgres } from "../support/postgres.js"
import { Commands, fixedClock, Maintenance, T0 } from "../support/services.js"

const PERSON = { origin: "cli", agent: "cli" }

const run = <A, E>(url: string, program: Effect.Effect<A, E, Commands | Maintenance>) =>
  Effect.runPromise(Effect.scoped(program.pipe(Effect.withClock(fixedClock(T0)), Effect.provide(LocalOperationsLayer(url, DEFAULT_CONFIG)))))

/** When the keyword index's table was last vacuumed by a statement (not by autovacuum), in seconds; 0 for never. */
const lastVacuum = async (url: string): Promise<number> => {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ at: string | null }>(
      "SELECT extract(epoch FROM last_vacuum)::text AS at FROM pg_stat_user_tables WHERE relname = 'keyword_terms'"
    )
    return Number(rows[0]?.at ?? 0)
  } finally {
    await client.end()
  }
}

const addSome = Effect.flatMap(Commands, (c) =>
  Effect.forEach(["Deploy with make ship", "Run pnpm install --frozen-lockfile", "The staging database resets nightly"], (content) => c.add({ content, scope: "global", project: null }, PERSON))
)

describePostgres("vacuuming what a rebuild wrote on PostgreSQL", () => {
  afterAll(dropTestDatabases)

  it("the first opening and a rebuild vacuum the tables they wrote", async () => {
    const { url } = await testPostgres()
    await run(url, addSome)
    const opened = await lastVacuum(url)
    expect(opened).toBeGreaterThan(0)
    await run(url, Effect.flatMap(Maintenance, (m) => m.rebuild()))
    expect(await lastVacuum(url)).toBeGreaterThan(opened)
  })

  it("replay vacuums the tables it wrote", async () => {
    const from = await testPostgres()
    const into = await testPostgres()
    await run(from.url, addSome)
    const dir = mkdtempSync(join(tmpdir(), "memledger-vacuum-"))
    const file = join(dir, "log.jsonl")
    await run(from.url, Effect.flatMap(Maintenance, (m) => m.exportTo(file)))
    const exported = readFileSync(file, "utf8")
    rmSync(dir, { recursive: true, force: true })
    await run(into.url, Effect.flatMap(Maintenance, (m) => m.doctor))
    const opened = await lastVacuum(into.url)
    await run(into.url, Effect.flatMap(Maintenance, (m) => m.replay(exported)))
    expect(await lastVacuum(into.url)).toBeGreaterThan(opened)
  })
})
