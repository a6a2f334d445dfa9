/**
 * Vectors on PostgreSQL, where they go beyond the contract (test/contracts/vector-reads.contract.ts):
 * purge deletes the vectors of erased text, stored and cached; a rebuild keeps them, so the next
 * search embeds nothing again; and a database where the role may not add pgvector opens as a
 * keyword store whose doctor says why, and keeps vectors from the first opening after a
 * superuser has added it.
 */
import { randomBytes } from "node:crypto"
import { Effect, Layer } from "effect"
import { afterAll, expect, it } from "vitest"
import { Client } from "pg"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { Embedder, type EmbedderApi } from "../../src/embeddings/embedder.js"
import { LocalOperationsLayer } from "../../src/services/app.js"
import { contentHash } from "../../src/store/vector-sync.js"
import { describePostgres, dropTestDatabases, serverUrl, testPostgres } from "../support/postgres.js"
import { Commands, fixedClock, Maintenance, Queries, Retrieval, T0 } from "../support/services.js"
import { countingEmbedder } from "./fake-embeddings.js"

const PERSON = { origin: "cli", agent: "cli" }
const project = "github.com/acme/app"

/** Runs `program` on the store at `url` with `embedder`, opened as `mem --db` opens it. */
const run = <A, E>(url: string, embedder: EmbedderApi, program: Effect.Effect<A, E, Commands | Retrieval | Maintenance | Queries>) =>
  Effect.runPromise(
    Effect.scoped(program.pipe(Effect.withClock(fixedClock(T0)), Effect.provide(LocalOperationsLayer(url, DEFAULT_CONFIG, Layer.succeed(Embedder, embedder)))))
  )

const query = async <Row>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> => {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(sql, params)).rows as Row[]
  } finally {
    await client.end()
  }
}

const search = (text: string) => Effect.flatMap(Retrieval, (r) => r.search({ query: text, project }, PERSON))

describePostgres("vectors on PostgreSQL", () => {
  afterAll(dropTestDatabases)

  it("purge deletes the stored and cached vectors of erased text, and keeps the others", async () => {
    const { url } = await testPostgres()
    const embedder = countingEmbedder()
    const kept = "Run the integration tests with make itest"
    await run(
      url,
      embedder,
      Effect.gen(function* () {
        const c = yield* Commands
        yield* c.add({ content: kept, scope: "project", project }, PERSON)
        yield* c.add({ content: "The staging database resets nightly", scope: "project", project }, { origin: "codex:thread/x", agent: "codex" })
        const old = yield* c.add({ content: "Deploy by copying files over ssh", scope: "project", project }, PERSON)
        yield* search("integration tests")
        yield* c.forget(old.id, "outdated", PERSON)
        yield* c.forgetConversation("codex:thread/x", false, PERSON)
      })
    )
    // No search since the forgetting, so no sync has dropped a vector yet: the purge must.
    expect(await query(url, "SELECT count(*)::int AS n FROM memory_vectors")).toEqual([{ n: 3 }])
    expect(await query(url, "SELECT count(*)::int AS n FROM embedding_cache")).toEqual([{ n: 3 }])

    await run(url, embedder, Effect.flatMap(Maintenance, (m) => m.purge({ memories: true })))

    const keptKey = (await query<{ key: number }>(url, "SELECT key::int FROM memories WHERE content = $1", [kept]))[0]!.key
    expect(await query(url, "SELECT key::int, content_hash FROM memory_vectors")).toEqual([{ key: keptKey, content_hash: contentHash(kept) }])
    expect(await query(url, "SELECT content_hash FROM embedding_cache")).toEqual([{ content_hash: contentHash(kept) }])
  })

  it("a rebuild keeps the vectors: the next search embeds only its query and ranks as before", async () => {
    const { url } = await testPostgres()
    const embedder = countingEmbedder()
    const contents = ["Run the integration tests with make itest", "The integration database resets nightly"]
    const ranked = (found: { results: ReadonlyArray<{ memory: { id: string }; score: number }> }) => found.results.map((r) => [r.memory.id, r.score])
    const before = await run(
      url,
      embedder,
      Effect.gen(function* () {
        const c = yield* Commands
        for (const content of contents) yield* c.add({ content, scope: "project", project }, PERSON)
        return yield* search("integration tests")
      })
    )
    const rows = () => query(url, "SELECT model, key::int, content_hash, place, embedding::text FROM memory_vectors ORDER BY key")
    const filed = await rows()
    expect(filed).toHaveLength(2)
    const embedded = embedder.texts.length

    const after = await run(url, embedder, Effect.zipRight(Effect.flatMap(Maintenance, (m) => m.rebuild()), search("integration tests")))

    expect(embedder.texts.slice(embedded)).toEqual(["integration tests"])
    expect(await rows()).toEqual(filed)
    expect(after.mode).toBe("hybrid")
    expect(ranked(after)).toEqual(ranked(before))
  })

  it("where the role may not add pgvector, the store opens as a keyword store and doctor says why; once added, vectors are kept", async () => {
    const server = serverUrl()
    const suffix = randomBytes(4).toString("hex")
    const role = `memledger_plain_${suffix}`
    const name = `memledger_test_plain_${suffix}`
    const password = randomBytes(12).toString("hex")
    await query(server, `CREATE ROLE ${role} LOGIN PASSWORD '${password}'`)
    await query(server, `CREATE DATABASE ${name} OWNER ${role} TEMPLATE template0 ENCODING 'UTF8'`)
    const asSuperuser = Object.assign(new URL(server), { pathname: `/${name}` }).toString()
    const url = Object.assign(new URL(server), { username: role, password, pathname: `/${name}` }).toString()
    try {
      const embedder = countingEmbedder()
      const session = Effect.gen(function* () {
        const found = yield* search("integration tests")
        const doctor = yield* Effect.flatMap(Maintenance, (m) => m.doctor)
        const stats = yield* Effect.flatMap(Queries, (q) => q.stats())
        return { found, doctor, stats }
      })
      const keyword = await run(
        url,
        embedder,
        Effect.zipRight(
          Effect.flatMap(Commands, (c) => c.add({ content: "Run the integration tests with make itest", scope: "project", project }, PERSON)),
          session
        )
      )
      expect(keyword.found.mode).toBe("keyword")
      expect(keyword.found.results.map((r) => r.memory.content)).toEqual(["Run the integration tests with make itest"])
      expect(keyword.doctor.search.mode).toBe("keyword")
      expect(keyword.doctor.checks.find((c) => c.name === "vectors")).toEqual({
        name: "vectors",
        ok: true,
        detail: expect.stringMatching(new RegExp(`pgvector .* is on this server but not in this database, and the role ${role} may not add it: .*: searches here are keyword searches`))
      })
      expect(keyword.stats.search).toMatchObject({ mode: "keyword", vectorsCurrent: null })
      // Only doctor's own probe of the embedder: neither the memory nor the query was embedded.
      expect(embedder.texts).toEqual(["memledger doctor"])
      expect(await query(url, "SELECT to_regclass('memory_vectors') AS found")).toEqual([{ found: null }])

      await query(asSuperuser, "CREATE EXTENSION vector")
      const hybrid = await run(url, embedder, session)
      expect(hybrid.found.mode).toBe("hybrid")
      expect(hybrid.found.results[0]!.memory.content).toBe("Run the integration tests with make itest")
      expect(hybrid.doctor.checks.find((c) => c.name === "vectors")?.detail).toMatch(/^pgvector [\d.]+ keeps the embedder's vectors here: 1 of test:bag-of-words$/)
      expect(hybrid.stats.search).toMatchObject({ mode: "hybrid", vectorsCurrent: true })
    } finally {
      await query(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await query(server, `DROP ROLE IF EXISTS ${role}`)
    }
  })
})
