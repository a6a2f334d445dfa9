/**
 * Keyword search on PostgreSQL: a store of `--size` memories (support/corpus.ts), made the
 * quick way (bulk import into SQLite, export, replay into a fresh PostgreSQL database, which
 * also times the replay), then Retrieval.search for the search bench's queries and for
 * queries of the corpus's most common words, where BM25 scores every matching row. Reports
 * p50 and p95 of each set. The goal at 100,000: p95 under 25 ms for both.
 *
 *   node bench/run.mjs pg-search --pg postgres://SERVER [--size 100000] [--queries 300] [--warmup 30] [--keep]
 *   node bench/run.mjs pg-search --store postgres://SERVER/KEPT_DATABASE [--size 100000]
 *
 * `--keep` leaves the database on the server and prints its URL, to look at a query's plan or
 * to time searches again with `--store`, which skips making it (give the same `--size`: the
 * queries come from the same seeded corpus).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect, ManagedRuntime } from "effect"
import { AppLayer } from "../src/services/app.js"
import { Maintenance } from "../src/services/maintenance.js"
import { Retrieval } from "../src/services/retrieval.js"
import { indexTokens } from "../src/retrieval/stems.js"
import { generateMemories, makeRandom, toJsonl, type MemoryLine } from "./support/corpus.js"
import { cpuSeconds, environment, fmt, intArg, stringArg, withScratchDir } from "./support/measure.js"
import { pgServerArg, scratchStore } from "./support/scratch-store.js"
import { backendsOf } from "./support/postgres-cpu.js"
import { cpuSecondsOf } from "./support/process-cpu.js"
import { percentile } from "./support/search-report.js"
import { commonWordQueries, makeQueries, type BenchQuery } from "./support/search-queries.js"

const server = pgServerArg()
const kept = stringArg("store")
if (server === undefined && kept === undefined) {
  console.error("usage: node bench/run.mjs pg-search (--pg postgres://SERVER | --store postgres://SERVER/DATABASE) [--size N] [--queries N]")
  process.exit(2)
}
const size = intArg("size", 100_000)
const queryCount = intArg("queries", 300)
const warmup = intArg("warmup", 30)
const actor = { origin: "bench", agent: "bench" }


/** A new database holding `corpus`, made by replaying a SQLite store's export (the replay is timed). */
const makeStore = async (corpus: ReadonlyArray<MemoryLine>, server: string): Promise<{ location: string; remove: () => Promise<void> }> =>
  withScratchDir("pg-search", async (dir) => {
    const exported = join(dir, "log.jsonl")
    const sqlite = ManagedRuntime.make(AppLayer(join(dir, "made.db")))
    await sqlite.runPromise(Effect.flatMap(Maintenance, (m) => m.importJsonl(toJsonl(corpus), actor)))
    await sqlite.runPromise(Effect.flatMap(Maintenance, (m) => m.exportTo(exported)))
    await sqlite.dispose()
    const store = await scratchStore("pg-search", server)
    const pg = ManagedRuntime.make(AppLayer(store.location))
    try {
      const started = performance.now()
      const replayed = await pg.runPromise(Effect.flatMap(Maintenance, (m) => m.replay(readFileSync(exported, "utf8"))))
      const seconds = (performance.now() - started) / 1000
      console.log(`replay into PostgreSQL: ${fmt(replayed.events)} events in ${seconds.toFixed(1)} s (${fmt(replayed.events / seconds)} events/s, projections rebuilt)`)
    } finally {
      await pg.dispose()
    }
    return store
  })

console.log(`pg-search: ${fmt(size)} memories, ${fmt(queryCount)} queries per set; ${environment()}`)
const corpus = generateMemories(size)
const store = kept === undefined ? await makeStore(corpus, server!) : { location: kept, remove: async () => {} }
const pg = ManagedRuntime.make(AppLayer(store.location))
try {
  const sets: Array<[string, BenchQuery[]]> = [
    ["search bench queries", makeQueries(queryCount + warmup, corpus, makeRandom(size))],
    ["common words", commonWordQueries(corpus, queryCount + warmup)]
  ]
  // The store opens its connection on first use: after a search, its backend can be named.
  await pg.runPromise(Effect.flatMap(Retrieval, (r) => r.search({ query: "warm", project: null, limit: 10 }, actor)))
  const backends = await backendsOf(store.location)
  for (const [name, queries] of sets) {
    const times: number[] = []
    const cpu: number[] = []
    let serverCpu = 0
    for (const [i, q] of queries.entries()) {
      if (i === warmup) serverCpu = cpuSecondsOf(backends)
      const t = performance.now()
      const c = process.cpuUsage()
      await pg.runPromise(Effect.flatMap(Retrieval, (r) => r.search({ query: q.query, project: q.project, limit: 10 }, actor)))
      if (i < warmup) continue
      times.push(performance.now() - t)
      cpu.push(cpuSeconds(c) * 1000)
    }
    const serverMs = ((cpuSecondsOf(backends) - serverCpu) * 1000) / times.length
    console.log(
      `${name.padEnd(22)} p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms; CPU a search: ` +
        `this process p50 ${percentile(cpu, 50).toFixed(1)} ms, its PostgreSQL backend mean ${serverMs.toFixed(1)} ms  (e.g. "${queries[warmup]!.query}")`
    )
  }
  const terms = indexTokens(corpus[0]!.content).length
  console.log(`(first memory: ${terms} tokens)`)
} finally {
  await pg.dispose()
  if (process.argv.includes("--keep") && kept === undefined) console.log(`kept: ${store.location}`)
  else await store.remove()
}
