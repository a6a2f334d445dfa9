/**
 * A log moves between stores unchanged, through `mem export` and `mem replay`: exported from
 * SQLite, replayed into PostgreSQL and exported again, the two files are byte for byte the same,
 * and so after a replay back into SQLite; every store verifies and shows the same memories,
 * conversations and log. The log holds every kind of event commands write, and payloads purge
 * erased (their envelopes and hashes kept).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, expect, it } from "vitest"
import { memAt, tempDir } from "../support/cli.js"
import { describePostgres, dropTestDatabases, testPostgres } from "../support/postgres.js"
import { Commands, Maintenance, person, Retrieval, runAt, T0 } from "../support/services.js"

/** The events `writeEveryKind` appends: four adds and one for each later step but purge, which appends none. */
const EVENTS = 15

const S1 = { origin: "claude-code:session/s1", agent: "claude-code" }
const LEAKY = { origin: "claude-code:session/leaky", agent: "claude-code" }
const APP = "github.com/acme/app"

/** Every kind of event a person or an agent writes, then a forgotten conversation purged. */
const writeEveryKind = Effect.gen(function* () {
  const c = yield* Commands
  const deploy = yield* c.add({ content: "Deploy with make deploy ENV=prod", category: "command", scope: "project", project: APP, tags: ["ops"] }, person)
  const tests = yield* c.add({ content: "Run the unit tests with pnpm test before every push", scope: "global", project: null, cues: ["how do I check my change"] }, person)
  const staging = yield* c.add({ content: "The staging database is reset every night", scope: "global", project: null }, LEAKY)
  const release = yield* c.add({ content: "Ship to production through the release train, never by hand", scope: "project", project: APP }, person)
  yield* Effect.flatMap(Retrieval, (r) => r.search({ query: "deploy", project: APP, task: "beads:bd-1" }, S1))
  yield* c.outcome([deploy.id, tests.id], "worked", { task: "beads:bd-1" }, S1)
  yield* c.outcome([staging.id], "failed", {}, LEAKY)
  yield* c.revise(tests.id, { content: "Run the unit tests with pnpm test before each push" }, person)
  yield* c.confirm(tests.id, S1)
  yield* c.supersede(deploy.id, release.id, person)
  yield* c.forget(tests.id, "checking", person)
  yield* c.restore(tests.id, "still right", person)
  yield* c.forgetConversation(S1.origin, false, person)
  yield* c.forgetConversation(S1.origin, true, person)
  yield* c.forgetConversation(LEAKY.origin, false, person)
  yield* Effect.flatMap(Maintenance, (m) => m.purge({ memories: false }))
})

const exported = (run: ReturnType<typeof memAt>, file: string): string => {
  expect(run("export", file, "--json").json()).toMatchObject({ events: EVENTS })
  return readFileSync(file, "utf8")
}

describePostgres("a log moved between SQLite and PostgreSQL", () => {
  afterAll(dropTestDatabases)

  it("exports byte for byte the same from each store it was replayed into, and each store reads the same", async () => {
    const dir = tempDir()
    await runAt(join(dir, "a.db"), T0, writeEveryKind)
    const sqlite = memAt(join(dir, "a.db"))
    const fromSqlite = exported(sqlite, join(dir, "a.jsonl"))
    const events = fromSqlite.trim().split("\n").map((line) => JSON.parse(line) as { type: string; payload: unknown })
    expect(new Set(events.map((e) => e.type))).toEqual(
      new Set([
        "MemoryAdded",
        "MemoriesRecalled",
        "OutcomeRecorded",
        "MemoryRevised",
        "MemoryConfirmed",
        "MemorySuperseded",
        "MemoryForgotten",
        "MemoryRestored",
        "ConversationForgotten",
        "ConversationRestored"
      ])
    )
    // The leaky conversation's memory and outcome, erased by purge: their envelopes travel, their text does not.
    expect(events.filter((e) => e.payload === null)).toHaveLength(2)

    const postgres = memAt((await testPostgres()).url)
    expect(postgres("replay", join(dir, "a.jsonl"), "--json").json()).toEqual({ events: EVENTS })
    const fromPostgres = exported(postgres, join(dir, "b.jsonl"))
    expect(fromPostgres).toBe(fromSqlite)

    const back = memAt(join(dir, "c.db"))
    expect(back("replay", join(dir, "b.jsonl"), "--json").json()).toEqual({ events: EVENTS })
    expect(exported(back, join(dir, "c.jsonl"))).toBe(fromSqlite)

    const reads = [["list", "--all"], ["conversations"], ["log"]]
    const read = (run: ReturnType<typeof memAt>) => reads.map((args) => run(...args, "--json").json())
    const original = read(sqlite)
    for (const run of [postgres, back]) {
      expect(run("verify", "--json").json()).toMatchObject({ ok: true, events: EVENTS })
      expect(read(run)).toEqual(original)
    }
  }, 120_000)
})
