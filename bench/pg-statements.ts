/**
 * Which statements a PostgreSQL search sends, and how long each waits for its answer: the
 * pg-search bench's queries on a kept database, every round trip of the store's connection
 * timed in the client (a statement's server time plus one loopback round trip), grouped by
 * the statement's text.
 *
 *   node bench/run.mjs pg-statements --store postgres://SERVER/KEPT_DATABASE [--size 100000] [--queries 100]  [--common] [--explain] [--dump FILE]
 */
import { writeFileSync } from "node:fs"
import { performance } from "node:perf_hooks"
import pg from "pg"
import { Clock, Effect, ManagedRuntime } from "effect"
import { AppLayer } from "../src/services/app.js"
import { Retrieval } from "../src/services/retrieval.js"
import { SyncPg } from "../src/store/postgres/sync-client.js"
import { generateMemories, makeRandom } from "./support/corpus.js"
import { intArg, stringArg } from "./support/measure.js"
import { commonWordQueries, makeQueries } from "./support/search-queries.js"

const store = stringArg("store")
if (store === undefined) {
  console.error("usage: node bench/run.mjs pg-statements --store postgres://SERVER/DATABASE [--size N] [--queries N] [--common]")
  process.exit(2)
}
const size = intArg("size", 100_000)
const queryCount = intArg("queries", 100)
const actor = { origin: "bench", agent: "bench" }


// Every round trip goes through the private `ask`: time it, keyed by what it sent.
const timed = new Map<string, { n: number; ms: number }>()
/** The slowest sending of each statement with parameters, to explain (`--explain`). */
const slowest = new Map<string, { ms: number; sql: string; params: ReadonlyArray<unknown> }>()
let recording = false
/** The BM25 readings of the search under way, and how many searches made each sequence of them. */
let sequence: string[] = []
const sequences = new Map<string, number>()
const proto = SyncPg.prototype as unknown as { ask: (message: { op: string; sql?: string; params?: ReadonlyArray<unknown>; batch?: Array<[string]> }, wait?: number) => unknown }
const ask = proto.ask
proto.ask = function (this: unknown, message, wait) {
  const t = performance.now()
  try {
    return ask.call(this, message, wait)
  } finally {
    if (recording) {
      const key = message.op === "batch" ? `batch: ${message.batch!.map(([sql]) => label(sql)).join(" | ")}` : readingOf(message.sql, message.params) + label(message.sql ?? message.op)
      const reading = readingOf(message.sql, message.params)
      if (reading !== "") sequence.push(reading.trim())
      const entry = timed.get(key) ?? { n: 0, ms: 0 }
      entry.n++
      const ms = performance.now() - t
      entry.ms += ms
      timed.set(key, entry)
      if (message.sql !== undefined && message.params !== undefined && message.params.length > 0 && ms > (slowest.get(key)?.ms ?? 0)) {
        slowest.set(key, { ms, sql: message.sql, params: message.params })
      }
    }
  }
}
/** A BM25 search's reading (keyword-search.ts), and how many rows it asked for. */
const readingOf = (sql: string | undefined, params: ReadonlyArray<unknown> | undefined): string =>
  sql === undefined || !sql.includes("keyword_terms t") ? "" : `[${sql.includes("unread AS") ? "best first" : "all"}, ${String(params?.[2])}] `
const label = (sql: string) => sql.replace(/\s+/g, " ").trim().slice(0, 110)

/** EXPLAIN ANALYZE of each statement's slowest sending, on a connection of its own, in a read-only transaction. */
const explainSlowest = async () => {
  const client = new pg.Client({ connectionString: store })
  await client.connect()
  try {
    for (const [key, { ms, sql, params }] of [...slowest].sort((a, b) => b[1].ms - a[1].ms).slice(0, 3)) {
      if (!/^\s*(SELECT|WITH)/i.test(sql)) continue
      console.log(`\n${ms.toFixed(2)} ms: ${key}\nparams: ${JSON.stringify(params).slice(0, 400)}\n${sql}`)
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
      const plan = await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values: [...params] })
      await client.query("ROLLBACK")
      for (const row of plan.rows) console.log(row["QUERY PLAN"])
    }
  } finally {
    await client.end()
  }
}

/** One moment for every search, so that two runs' scores (which decay with time) compare exactly. */
const FIXED_MS = Date.parse("2026-12-01T00:00:00Z")
const FIXED_CLOCK: Clock.Clock = {
  [Clock.ClockTypeId]: Clock.ClockTypeId,
  unsafeCurrentTimeMillis: () => FIXED_MS,
  currentTimeMillis: Effect.succeed(FIXED_MS),
  unsafeCurrentTimeNanos: () => BigInt(FIXED_MS) * 1_000_000n,
  currentTimeNanos: Effect.succeed(BigInt(FIXED_MS) * 1_000_000n),
  sleep: (duration) => Effect.sleep(duration)
}

const corpus = generateMemories(size)
const queries = process.argv.includes("--common") ? commonWordQueries(corpus, queryCount) : makeQueries(queryCount, corpus, makeRandom(size))
const runtime = ManagedRuntime.make(AppLayer(store))
try {
  for (const q of queries.slice(0, 10)) await runtime.runPromise(Effect.flatMap(Retrieval, (r) => r.search({ query: q.query, project: q.project, limit: 10 }, actor)))
  recording = true
  const answers: string[] = []
  for (const q of queries) {
    sequence = []
    const found = await runtime.runPromise(Effect.withClock(Effect.flatMap(Retrieval, (r) => r.search({ query: q.query, project: q.project, limit: 10 }, actor)), FIXED_CLOCK))
    answers.push(JSON.stringify({ q, results: found.results.map((r) => [r.memory.id, r.shortId, r.score]) }))
    sequences.set(sequence.join(" "), (sequences.get(sequence.join(" ")) ?? 0) + 1)
  }
  recording = false
  // Every answer, to compare two versions of the code on one store.
  const dump = stringArg("dump")
  if (dump !== undefined) writeFileSync(dump, answers.join("\n") + "\n")
  let total = 0
  let trips = 0
  for (const [key, { n, ms }] of [...timed].sort((a, b) => b[1].ms - a[1].ms)) {
    total += ms
    trips += n
    console.log(`${(ms / queries.length).toFixed(2).padStart(7)} ms  ${(n / queries.length).toFixed(2).padStart(5)}/search  ${(ms / n).toFixed(2).padStart(6)} ms each  ${key}`)
  }
  console.log(`total ${(total / queries.length).toFixed(2)} ms and ${(trips / queries.length).toFixed(1)} round trips a search`)
  for (const [readings, n] of [...sequences].sort((a, b) => b[1] - a[1])) console.log(`${String(n).padStart(5)} searches read: ${readings || "(nothing)"}`)
  if (process.argv.includes("--explain")) await explainSlowest()
} finally {
  await runtime.dispose()
}
