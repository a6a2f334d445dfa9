/**
 * `mem purge` on PostgreSQL while another session of the database may still see what it
 * erases: VACUUM keeps every row version a session may see, so the purge waits for such
 * sessions before it vacuums, and names those that outlast its wait. A real server, real
 * `mem` processes, and the database's own files scanned for the text.
 */
import { Client } from "pg"
import { afterAll, afterEach, expect, it } from "vitest"
import { memAsync } from "../support/cli-async.js"
import { memAt } from "../support/cli.js"
import { databaseFilesHold, describePostgres, dropTestDatabases, testPostgres } from "../support/postgres.js"

const MARKER = "h5q-held-snapshot-marker-2wz"

const clients: Client[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) await client.end()
})
afterAll(dropTestDatabases)

/** A store with a forgotten conversation whose memory holds MARKER. */
const storeWithForgottenText = async (): Promise<string> => {
  const { url } = await testPostgres()
  const run = memAt(url)
  expect(run("add", "keep: the build uses Node 20", "--global").code).toBe(0)
  expect(run("add", `note ${MARKER} for the staging box`, "--global", "--origin", "claude-code:session/leaky").code).toBe(0)
  expect(run("forget-conversation", "claude-code:session/leaky").code).toBe(0)
  return url
}

/** That store, and a session that saw the text, in a transaction still open. */
const storeAndOldReader = async () => {
  const url = await storeWithForgottenText()
  const reader = new Client({ connectionString: url, application_name: "old-reader" })
  await reader.connect()
  clients.push(reader)
  await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ")
  await reader.query("SELECT count(*) FROM events")
  return { url, reader }
}

/** Resolves once the purge's erasing has committed, as a third session sees it. */
const erased = async (url: string): Promise<void> => {
  const watcher = new Client({ connectionString: url })
  await watcher.connect()
  clients.push(watcher)
  for (;;) {
    const { rows } = await watcher.query<{ n: number }>("SELECT count(*)::int AS n FROM events WHERE payload IS NULL")
    if (rows[0]!.n > 0) return
    await watcher.query("SELECT pg_sleep(0.05)")
  }
}

describePostgres("purge while another session still sees the text", () => {
  it("waits for that session to end before it vacuums, and the text leaves the database's files", async () => {
    const { url, reader } = await storeAndOldReader()
    expect(await databaseFilesHold(url, MARKER)).toBe(true)
    const purging = memAsync(["--db", url, "purge", "--yes", "--json"])
    await erased(url)
    await reader.query("COMMIT")
    const result = await purging
    expect(result.code, result.stderr).toBe(0)
    expect(result.json()).toMatchObject({ done: true, erasedEvents: 1 })
    expect(result.json()).not.toHaveProperty("heldBy")
    expect(await databaseFilesHold(url, MARKER)).toBe(false)
  })

  it("names the session that outlasts its wait, whose text stays until a purge after it ends", async () => {
    const { url, reader } = await storeAndOldReader()
    const held = await memAsync(["--db", url, "purge", "--yes", "--json"])
    expect(held.code, held.stderr).toBe(0)
    expect(held.json()).toMatchObject({ done: true, erasedEvents: 1, heldBy: [expect.stringContaining("(old-reader)")] })
    expect(await databaseFilesHold(url, MARKER)).toBe(true)
    await reader.query("COMMIT")
    const again = await memAsync(["--db", url, "purge", "--yes"])
    expect(again.code, again.stderr).toBe(0)
    expect(again.stdout).toContain("nothing to purge")
    expect(await databaseFilesHold(url, MARKER)).toBe(false)
  })

  it("waits for a transaction of another database begun before its erasing, which every snapshot here counts as running", async () => {
    const url = await storeWithForgottenText()
    const other = new Client({ connectionString: (await testPostgres()).url, application_name: "other-writer" })
    await other.connect()
    clients.push(other)
    await other.query("BEGIN")
    await other.query("SELECT pg_current_xact_id()")
    let finishedAt = 0
    const purging = memAsync(["--db", url, "purge", "--yes", "--json"]).then((r) => ((finishedAt = Date.now()), r))
    await erased(url)
    // Long enough for a purge that does not wait to have vacuumed by then.
    await other.query("SELECT pg_sleep(1.5)")
    const committedAt = Date.now()
    await other.query("COMMIT")
    const result = await purging
    expect(result.code, result.stderr).toBe(0)
    expect(finishedAt).toBeGreaterThanOrEqual(committedAt)
    expect(result.json()).not.toHaveProperty("heldBy")
    expect(await databaseFilesHold(url, MARKER)).toBe(false)
  })
})
