/**
 * What a keyword search on PostgreSQL sends: each statement is a round trip to the connection's
 * worker thread and the server (sync-client.ts), so a search reads the index's statistics of
 * both indexes once, searches each index once, and reads its results' rows with their learned
 * cues and short ids in one statement (read-memo.ts, result-rows.ts); and what the transaction
 * kept answers exactly what the database does, for `why` as for `search`.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it, vi } from "vitest"
import { SyncPg } from "../../src/store/postgres/sync-client.js"
import { describePostgres, dropTestDatabases, testPostgres } from "../support/postgres.js"
import { actor, Commands, DAY, openServices, Queries, Retrieval, T0 } from "../support/services.js"

const project = "github.com/acme/app"

describePostgres("a keyword search on PostgreSQL", () => {
  let services: ReturnType<typeof openServices>
  let url: string

  beforeAll(async () => {
    url = (await testPostgres()).url
    services = openServices(url)
    await services.runAt(
      T0,
      Effect.gen(function* () {
        const c = yield* Commands
        for (let i = 0; i < 60; i++) {
          yield* c.add({ content: `Kestrel note ${i}: the falcon ${"nests ".repeat(1 + (i % 3))}near module ${i}`, scope: i % 2 === 0 ? "project" : "global", project }, actor)
        }
      })
    )
  }, 60_000)

  afterAll(async () => {
    await services?.close()
    await dropTestDatabases()
  })

  /** The statements `run` sends, one entry a round trip (a message's queued writes included). */
  const statementsOf = async <A>(run: () => Promise<A>): Promise<{ result: A; sent: string[] }> => {
    const sent: string[] = []
    const proto = SyncPg.prototype as unknown as { ask: (...args: unknown[]) => unknown }
    const original = proto.ask
    const spy = vi.spyOn(proto, "ask").mockImplementation(function (this: unknown, ...args: unknown[]) {
      const m = args[0] as { sql?: string; batch?: Array<[string]> }
      sent.push(m.sql ?? (m.batch ?? []).map(([sql]) => sql).join("; "))
      return original.apply(this, args)
    })
    try {
      return { result: await run(), sent }
    } finally {
      spy.mockRestore()
    }
  }

  const search = (query: string) => services.runAt(T0 + DAY, Effect.flatMap(Retrieval, (r) => r.search({ query, project }, actor)))

  it("reads the statistics once, each index once, and the results with their cues and short ids in one statement", async () => {
    await search("falcon nests")
    const { result, sent } = await statementsOf(() => search("falcon nests"))
    expect(result.results.length).toBeGreaterThan(0)
    const about = (text: string) => sent.filter((sql) => sql.includes(text)).length
    expect(about("FROM keyword_df")).toBe(1)
    // Memories' BM25, once though this search widens (all 60 match): the rest's fields are read
    // by key. No cue was learned, so the cues' index is not searched.
    expect(about("keyword_terms t")).toBe(1)
    expect(about("FROM unnest($1::bigint[]) AS k(key)")).toBe(1)
    expect(about("FROM learned_cues")).toBe(1)
    expect(about("id < i.id")).toBe(0)
    // Read: statistics, search, the widened rows' fields, results; the record of the search:
    // the read's COMMIT, the lock, the head with the row of the conversation the last write was
    // for (this one), its writes with its COMMIT. Not which conversations are forgotten: a
    // search's record never needs to know.
    expect(sent).toHaveLength(6)
    expect(about("WHERE forgotten = 1")).toBe(0)
    expect(about("SELECT * FROM conversations")).toBe(0)
  })

  it("answers short ids and learned cues from what the search read as the database would", async () => {
    const found = await search("kestrel falcon")
    const ids = found.results.map((r) => r.memory.id)
    const shortIds = await services.runAt(T0 + DAY, Effect.flatMap(Queries, (q) => Effect.forEach(ids, (id) => Effect.map(q.show(id), (v) => v.shortId))))
    expect(found.results.map((r) => r.shortId)).toEqual(shortIds)
    const why = await services.runAt(T0 + DAY, Effect.flatMap(Retrieval, (r) => r.why({ query: "kestrel falcon", project })))
    expect(why.results.map((r) => [r.memory.id, r.shortId, r.score])).toEqual(found.results.map((r) => [r.memory.id, r.shortId, r.score]))
  })

  it("counts a conversation's events exactly when another server writes for it between two of this one's writes", async () => {
    const other = openServices(url)
    const counted = async () =>
      (await services.runAt(T0 + DAY, Effect.flatMap(Queries, (q) => q.conversations()))).find((c) => c.origin === "shared")?.events ?? 0
    try {
      const shared = { origin: "shared", agent: "test" }
      const before = await counted()
      for (let i = 0; i < 3; i++) {
        // This server's write reads the row of the conversation it last wrote for with the head;
        // the other server's write in between must be in that row.
        await services.runAt(T0 + DAY, Effect.flatMap(Retrieval, (r) => r.search({ query: "falcon", project }, shared)))
        await other.runAt(T0 + DAY, Effect.flatMap(Retrieval, (r) => r.search({ query: "kestrel", project }, shared)))
      }
      await services.runAt(T0 + DAY, Effect.flatMap(Retrieval, (r) => r.search({ query: "nests", project }, shared)))
      expect((await counted()) - before).toBe(7)
    } finally {
      await other.close()
    }
  })
})
