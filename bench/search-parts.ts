/**
 * Where a search's server CPU goes (1,000 HTTP searches/s needs a search under about 1 ms of it):
 * each layer of POST /search, measured on its own in one process, over 10,000 memories
 * (support/corpus.ts, imported through Maintenance.importJsonl) and the queries of
 * bench/http-search, ten at a time as autocannon's ten connections send them.
 *
 *   statement    the candidate statement alone: FTS5 match, bm25 of every in-scope match, the
 *                best 40 joined to their rank fields (what keywordCandidates runs)
 *   ranking      runSearch in a read transaction: the statement, rank, full rows of the results
 *   recall       Operations.recall: the ranking, short ids, the answer's records and the
 *                MemoriesRecalled write (ten searches share a commit, as in the server)
 *   route        the JSON route of `mem serve` without the socket: decode, recall, encode
 *
 * Then the same statement on a second connection, with and without a recall committed by the
 * first connection before each query: what a reader on another thread or process would pay.
 * In WAL mode, a connection that sees another's commit drops its page cache, and every search
 * commits one. (This is why a search pool on worker threads, or several `mem serve`
 * processes, did not raise the throughput; docs/benchmarks.md.)
 *
 *   node bench/run.mjs search-parts [--memories 10000] [--queries 2000] [--rounds 3]
 *
 * Prints CPU milliseconds per search (user + system of this process), the median of the rounds.
 */
import Database from "better-sqlite3"
import { join } from "node:path"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import type { Caller } from "../src/api/operations.js"
import { Operations } from "../src/api/operations.js"
import { makeJsonRoutes } from "../src/adapters/http/json-routes.js"
import { DEFAULT_CONFIG } from "../src/config.js"
import { keywordCandidates } from "../src/store/sqlite/retrieval/keyword-matches.js"
import { runSearch } from "../src/retrieval/ranking-run.js"
import { AppLayerOn } from "../src/services/app.js"
import { OperationsLocal } from "../src/api/operations-local.js"
import { Maintenance } from "../src/services/maintenance.js"
import { SqliteStore as Store, SqliteStoreLive } from "../src/store/sqlite/sqlite-store.js"
import { sqliteReads } from "../src/store/sqlite/sqlite-reads.js"
import { generateMemories, makeRandom, toJsonl } from "./support/corpus.js"
import { cpuSeconds, environment, fmt, intArg, median, withScratchDir } from "./support/measure.js"
import { makeQueries } from "./support/search-queries.js"

const memories = intArg("memories", 10_000)
const queryCount = intArg("queries", 2_000)
const rounds = intArg("rounds", 3)
const AT_ONCE = 10
const CALLER: Caller = { origin: "bench", agent: "bench", project: null }

/** CPU ms per call of `f` over every query, `atOnce` at a time, median of the rounds (after one warm-up). */
const perSearch = async (count: number, f: (i: number) => unknown, atOnce = AT_ONCE): Promise<number> => {
  const times: number[] = []
  for (let round = 0; round <= rounds; round++) {
    const start = process.cpuUsage()
    for (let i = 0; i < count; i += atOnce) {
      const batch: unknown[] = []
      for (let j = i; j < Math.min(count, i + atOnce); j++) batch.push(f(j))
      await Promise.all(batch)
    }
    if (round > 0) times.push((cpuSeconds(start) * 1000) / count)
  }
  return median(times)
}

await withScratchDir("search-parts", async (dir) => {
  console.log(`search-parts: ${fmt(memories)} memories, ${fmt(queryCount)} queries, ${AT_ONCE} at a time, median of ${rounds} rounds; ${environment()}`)
  const corpus = generateMemories(memories)
  const queries = makeQueries(queryCount, corpus, makeRandom(memories))
  const path = join(dir, "ledger.db")
  const runtime = ManagedRuntime.make(OperationsLocal.pipe(Layer.provideMerge(AppLayerOn(SqliteStoreLive(path, DEFAULT_CONFIG)))))
  try {
    const imported = await runtime.runPromise(Effect.flatMap(Maintenance, (m) => m.importJsonl(toJsonl(corpus), { origin: "bench", agent: "bench" })))
    if (imported.imported !== memories) throw new Error(`expected ${memories} memories, the import stored ${imported.imported}`)
    // As `mem serve` finds a store that `mem import` closed: its write-ahead log copied into
    // the file, so reads come from the file's memory map, not from the log.
    const checkpoint = new Database(path)
    checkpoint.pragma("wal_checkpoint(TRUNCATE)")
    checkpoint.close()
    const context = (await runtime.runtime()).context
    const operations = Context.get(context, Operations)
    const store = Context.get(context, Store)
    const config = DEFAULT_CONFIG
    const nowMs = Date.now()
    const request = (i: number) => ({ query: queries[i]!.query, limit: 10, project: queries[i]!.project })
    const recallInput = (i: number) => ({ query: queries[i]!.query, ...(queries[i]!.project === null ? {} : { project: queries[i]!.project! }) })
    const route = makeJsonRoutes(operations, (line) => console.error(line)).find("POST", "/search")!
    const url = new URL("http://127.0.0.1/search")
    const header = (name: string) => (name === "content-type" ? "application/json" : undefined)
    const bodies = queries.map((q, i) => Buffer.from(JSON.stringify(recallInput(i))))

    const rows: Array<[string, number]> = [
      ["statement", await perSearch(queryCount, (i) => store.read((db) => keywordCandidates(db, [queries[i]!.query], request(i), 10, config, nowMs, 40)))],
      ["ranking", await perSearch(queryCount, (i) => store.read((db) => runSearch(sqliteReads(db), request(i), nowMs, config)))],
      ["recall", await perSearch(queryCount, (i) => runtime.runPromise(operations.recall(recallInput(i), CALLER)))],
      ["route", await perSearch(queryCount, (i) => route({ body: bodies[i]!, url, header }))]
    ]
    for (const [name, ms] of rows) console.log(`  ${name.padEnd(10)} ${ms.toFixed(3)} ms per search`)

    // A second connection, as a reader thread or a second server process would hold. One
    // search at a time, so that each query follows its own recall's commit. The recall runs in
    // this process too, so its own cost is measured apart and subtracted.
    const reader = new Database(path, { readonly: true })
    reader.pragma("mmap_size = 1073741824")
    const onReader = (i: number) => reader.transaction(() => keywordCandidates(reader, [queries[i]!.query], request(i), 10, config, nowMs, 40)).deferred()
    const recall = (i: number) => runtime.runPromise(operations.recall(recallInput(i), CALLER))
    const alone = await perSearch(queryCount, onReader, 1)
    const recallAlone = await perSearch(queryCount, recall, 1)
    const recallThenReader = await perSearch(queryCount, (i) => recall(i).then(() => onReader(i)), 1)
    reader.close()
    console.log(`  statement on a second connection: ${alone.toFixed(3)} ms with no write between queries, ${(recallThenReader - recallAlone).toFixed(3)} ms when each follows a recall's commit`)
  } finally {
    await runtime.dispose()
  }
})
