/**
 * `mem backup` on a PostgreSQL store, as a person and `mem serve --backup` run it: the database's
 * log written as an export on one snapshot while four processes write, verified, kept under
 * retention beside nothing else it deletes, restored by replay into an empty database only (a
 * store that holds a log is refused, and left as it was), and purged with the store.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { basename, join } from "node:path"
import { Client } from "pg"
import { afterAll, afterEach, expect, it } from "vitest"
import { mem, memAt } from "../support/cli.js"
import { memAsync } from "../support/cli-async.js"
import { describePostgres, dropTestDatabases, testPostgres } from "../support/postgres.js"
import { startWorker, workersInTempDir } from "../support/processes.js"
import { startServe, stopAllServers } from "../support/serve.js"

const WRITERS = 4
const MARKER = "k7d-pg-backup-marker-3vn"
const FORGOTTEN = "p2x-forgotten-marker-6hw"

const tempDir = workersInTempDir()
afterEach(stopAllServers)
afterAll(dropTestDatabases)

type LogRow = { seq: number; id: string; hash: string }

/** The log's rows as the chain names them, read by a connection of the test's own. */
const logOf = async (url: string): Promise<LogRow[]> => {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ seq: string; id: string; hash: string }>("SELECT seq, id, hash FROM events ORDER BY seq")
    return rows.map((r) => ({ seq: Number(r.seq), id: r.id, hash: r.hash }))
  } finally {
    await client.end()
  }
}

/** An export's lines as the chain names them. */
const exportedLog = (file: string): LogRow[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => {
      const { seq, id, hash } = JSON.parse(line) as LogRow
      return { seq, id, hash }
    })

const waitFor = async (done: () => boolean | Promise<boolean>, what: string): Promise<void> => {
  for (const started = Date.now(); !(await done()); await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (Date.now() - started > 60_000) throw new Error(`timed out waiting for ${what}`)
  }
}

/** A new database with two memories in it, its name (what its copies are named after), and `mem` bound to it. */
const storeWithNotes = async () => {
  const db = await testPostgres()
  const run = memAt(db.url)
  expect(run("add", `the staging host is ${MARKER}`, "--global").code).toBe(0)
  expect(run("add", "deploy with make deploy", "--global").code).toBe(0)
  return { ...db, run }
}

describePostgres("mem backup on a PostgreSQL store", () => {
  it(`writes an export taken while ${WRITERS} processes write that verifies, holds the beginning of their log, and restores into an empty database only`, async () => {
    const { url } = await testPostgres()
    expect(mem(["--db", url, "add", "the build uses Node 20", "--global"]).code).toBe(0)
    const writers = Array.from({ length: WRITERS }, (_, w) => startWorker("sdk-writer.mjs", [url, String(w)]))
    await Promise.all(writers.map((w) => w.waitForLine((l) => l === "ready")))
    for (const w of writers) w.child.stdin!.write("go\n")
    await Promise.all(writers.map((w) => w.waitForLine((l) => l === "writing")))

    const before = (await logOf(url)).length
    const backup = await memAsync(["--db", url, "backup", join(tempDir(), "copies"), "--json"])
    expect(backup.code, backup.stderr).toBe(0)
    const { file, events } = backup.json() as { file: string; events: number }
    expect(basename(file)).toMatch(new RegExp(`^${new URL(url).pathname.slice(1)}-\\d{8}T\\d{6}Z\\.jsonl$`))
    expect(statSync(file).mode & 0o777).toBe(0o600)
    // The writers go on past the copy before they are stopped.
    await waitFor(async () => (await logOf(url)).length > events + WRITERS, "writes after the backup")
    for (const w of writers) w.child.kill("SIGKILL")
    await Promise.all(writers.map((w) => w.exited))

    const log = await logOf(url)
    const copied = exportedLog(file)
    expect(copied).toHaveLength(events)
    // Taken while they wrote: after the events counted before it, before those written after it.
    expect(events).toBeGreaterThan(before)
    expect(log.length).toBeGreaterThan(events)
    expect(copied).toEqual(log.slice(0, events))

    // Over a store that holds a log: refused, with what to do instead, and the log as it was.
    const over = mem(["--db", url, "backup", "restore", file])
    expect(over.code).toBe(1)
    expect(over.stderr).toContain(`refusing to restore ${file}: `)
    expect(over.stderr).toContain(`already holds ${log.length} events, and a backup is restored only into an empty store`)
    expect(over.stderr).toMatch(/createdb NAME.*'mem --db postgres:\/\/\.\.\.\/NAME backup restore FILE'.*; nothing was changed/)
    expect(await logOf(url)).toEqual(log)

    // Into a new, empty database: the copy's log exactly, verified.
    const empty = await testPostgres()
    const restored = mem(["--db", empty.url, "backup", "restore", file, "--json"])
    expect(restored.code, restored.stderr).toBe(0)
    expect(restored.json()).toMatchObject({ restored: file, events })
    expect(restored.json().movedAside).toBeUndefined()
    expect(await logOf(empty.url)).toEqual(copied)
    expect(mem(["--db", empty.url, "verify", "--json"]).json()).toMatchObject({ ok: true, events })
  }, 240_000)

  it("refuses to restore an export that does not verify, and leaves an empty database without even memledger's tables", async () => {
    const { url, run } = await storeWithNotes()
    const file = run("backup", join(tempDir(), "edited"), "--json").json().file as string
    writeFileSync(file, readFileSync(file, "utf8").replace(MARKER, MARKER.toUpperCase()))
    const empty = await testPostgres()
    const refused = mem(["--db", empty.url, "backup", "restore", file])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/refusing to restore .*: it does not verify: its hash chain is broken at event #1 \(.*payload.*\); nothing was changed/)
    const client = new Client({ connectionString: empty.url })
    await client.connect()
    expect((await client.query("SELECT to_regclass('events') AS t")).rows[0].t).toBeNull()
    await client.end()
    expect(mem(["--db", url, "verify", "--json"]).json()).toMatchObject({ ok: true, events: 2 })
  }, 120_000)

  it("keeps the newest export of each of the last 7 days and 4 weeks of this database's in DIR, and deletes nothing else", async () => {
    const { name, run } = await storeWithNotes()
    const folder = join(tempDir(), `retention-${name}`)
    mkdirSync(folder)
    // Twenty days of older copies, Wednesday 1 to Monday 20 January 2025 (never read, only named).
    const older = Array.from({ length: 20 }, (_, i) => `${name}-202501${String(i + 1).padStart(2, "0")}T030000Z.jsonl`)
    // A SQLite file's copies of the same name, another database's, and files of no store.
    const others = [`${name}-20250101T030000Z.db`, "other-20250101T030000Z.jsonl", "notes.txt", `.${name}-20250101T030000Z.jsonl.partial`]
    for (const file of [...older, ...others]) writeFileSync(join(folder, file), "not an export")
    const result = run("backup", folder, "--json")
    expect(result.code, result.stderr).toBe(0)
    const { file, kept, removed } = result.json() as { file: string; kept: string[]; removed: string[] }
    // The new copy's day and the six latest before it; 2025-W04's, W03's and W02's newest: the 20th, 19th and 12th.
    const keptOlder = [20, 19, 18, 17, 16, 15, 12].map((day) => `${name}-202501${day}T030000Z.jsonl`)
    expect(kept).toEqual([basename(file), ...keptOlder])
    expect(removed.sort()).toEqual(older.filter((n) => !keptOlder.includes(n)).sort())
    expect(readdirSync(folder).sort()).toEqual([...kept, ...others].sort())
    expect(run("backup", folder).stdout).toMatch(/^backed up 2 events to .*\.jsonl \(verified\)\nkept 8 copies of this store there/)
  }, 120_000)

  it("a purge writes its export copies again without the forgotten text, and names a copy of another log", async () => {
    const { name, url, run } = await storeWithNotes()
    expect(run("add", "answer in English", "--global", "--origin", "claude-code:session/keep").code).toBe(0)
    expect(run("add", `the quarterly offsite dinner is at ${FORGOTTEN}`, "--global", "--origin", "claude-code:session/leak", "--json").json()).toMatchObject({ stored: true })
    const folder = join(tempDir(), `purged-${name}`)
    const copy = run("backup", folder, "--json").json().file as string
    // Another database's log under this one's copies' name: found, but not this log.
    const other = memAt((await testPostgres()).url)
    other("add", `another store's note ${MARKER}`, "--global")
    const foreign = join(folder, `${name}-20200101T000000Z.jsonl`)
    writeFileSync(foreign, readFileSync(other("backup", join(tempDir(), `other-${name}`), "--json").json().file as string))

    // Forgotten after the copy was taken: the copy itself knows nothing of it.
    const forgot = run("forget-conversation", "claude-code:session/leak")
    expect(forgot.code, forgot.stderr).toBe(0)
    expect(readFileSync(copy, "utf8")).toContain(FORGOTTEN)
    expect(run("purge").stdout).toContain("it erases the same in 2 backup copies of this store")
    const purged = run("purge", "--yes", "--json")
    expect(purged.code, purged.stderr).toBe(0)
    expect(purged.json()).toMatchObject({
      erasedEvents: 1,
      copies: expect.arrayContaining([
        { file: copy, erasedEvents: 1 },
        { file: foreign, problem: expect.stringContaining("its log is not a copy of this store's, so it was not purged") }
      ])
    })
    expect(readFileSync(copy, "utf8")).not.toContain(FORGOTTEN)
    expect(statSync(copy).mode & 0o777).toBe(0o600)
    expect(readFileSync(foreign, "utf8")).toContain(MARKER)
    // What is left is the store's own export of the same events (the forgetting came after), and still restores.
    const exported = join(tempDir(), `export-${name}.jsonl`)
    expect(run("export", exported, "--json").json()).toMatchObject({ events: 5 })
    expect(readFileSync(copy, "utf8")).toBe(readFileSync(exported, "utf8").split("\n").slice(0, 4).join("\n") + "\n")
    const empty = await testPostgres()
    expect(mem(["--db", empty.url, "backup", "restore", copy, "--json"]).json()).toMatchObject({ events: 4 })
    expect(mem(["--db", empty.url, "list", "--json"]).json()).toHaveLength(3)
    expect(url).not.toBe(empty.url)
  }, 180_000)

  it("mem serve --backup DIR writes one at start, in a process of its own, while the server answers", async () => {
    const { url } = await storeWithNotes()
    const folder = join(tempDir(), `daily-${basename(url)}`)
    const server = await startServe(url, { args: ["--backup", folder] })
    expect(server.stderr()).toContain(`mem: backups to ${folder}: one now, then every 24 hours\nmem: serving http://`)
    expect((await server.call("GET", "/health")).status).toBe(200)
    await waitFor(() => /mem: backup: wrote (\S+) \(2 events, verified\)/.test(server.stderr()), "the backup")
    const [, file] = /mem: backup: wrote (\S+) \(2 events, verified\)/.exec(server.stderr())!
    expect(readdirSync(folder)).toEqual([basename(file!)])
    expect(exportedLog(file!)).toEqual(await logOf(url))
    await server.stop()
  }, 120_000)
})
