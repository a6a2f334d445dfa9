/**
 * Ingest: 100,000 distinct coding memories as JSONL, imported through the Maintenance service
 * (`importJsonl`, the path `mem import` takes) into a fresh store file, FTS indexing included.
 * Goal: at least 25,000 memories/s. Three runs, each on a new file; the median counts.
 *
 *   node bench/run.mjs ingest [--count 100000] [--runs 3]
 */
import { readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import { Maintenance } from "../src/services/maintenance.js"
import { AppLayer } from "../src/services/app.js"
import { fileSize } from "../src/store/sqlite/database.js"
import { generateMemories, toJsonl } from "./support/corpus.js"
import { cpuSeconds, environment, fmt, intArg, median, mib, withScratchDir } from "./support/measure.js"

const GOAL_PER_SECOND = 25_000

const count = intArg("count", 100_000)
const runs = intArg("runs", 3)

interface Run {
  readonly seconds: number
  /** CPU seconds of this process during the import: steadier than wall time on a shared machine. */
  readonly cpu: number
  readonly imported: number
  readonly dbBytes: number
}

/** Reads the file and imports it, as `mem import FILE` does; the store is closed (WAL folded in) before its size is taken. */
const importOnce = (jsonlFile: string, dbFile: string): Promise<Run> =>
  Effect.gen(function* () {
    const maintenance = yield* Maintenance
    const cpu = process.cpuUsage()
    const started = performance.now()
    const text = readFileSync(jsonlFile, "utf8")
    const report = yield* maintenance.importJsonl(text, { origin: "bench:ingest", agent: "bench" })
    const seconds = (performance.now() - started) / 1000
    if (report.imported !== count) throw new Error(`expected ${count} new memories, the import stored ${report.imported}`)
    return { seconds, cpu: cpuSeconds(cpu), imported: report.imported }
  }).pipe(
    Effect.provide(AppLayer(dbFile)),
    Effect.map((run) => ({ ...run, dbBytes: fileSize(dbFile) + fileSize(`${dbFile}-wal`) })),
    Effect.runPromise
  )

await withScratchDir("ingest", async (dir) => {
  console.log(`ingest: ${fmt(count)} memories, ${runs} runs; ${environment()}`)
  const generated = performance.now()
  const jsonl = toJsonl(generateMemories(count))
  const jsonlFile = join(dir, "memories.jsonl")
  writeFileSync(jsonlFile, jsonl)
  console.log(`  corpus: ${mib(Buffer.byteLength(jsonl))} of JSONL, generated in ${((performance.now() - generated) / 1000).toFixed(1)} s`)

  const results: Run[] = []
  for (let i = 0; i < runs; i++) {
    // The machine is shared: the load average before and after says how far to trust the run.
    const loadBefore = loadavg()[0]!
    const run = await importOnce(jsonlFile, join(dir, `run-${i}.db`))
    results.push(run)
    console.log(
      `  run ${i + 1}: ${run.seconds.toFixed(2)} s, ${fmt(run.imported / run.seconds)} memories/s (${run.cpu.toFixed(2)} s cpu), db ${mib(run.dbBytes)}; load ${loadBefore.toFixed(2)} to ${loadavg()[0]!.toFixed(2)}`
    )
  }
  const perSecond = median(results.map((r) => r.imported / r.seconds))
  const seconds = median(results.map((r) => r.seconds))
  const cpu = median(results.map((r) => r.cpu))
  const bytes = median(results.map((r) => r.dbBytes))
  const verdict = perSecond >= GOAL_PER_SECOND ? "meets" : "misses"
  console.log(
    `median of ${runs}: ${fmt(perSecond)} memories/s (${seconds.toFixed(2)} s, ${cpu.toFixed(2)} s cpu), db ${mib(bytes)}; ${verdict} the goal of ${fmt(GOAL_PER_SECOND)}/s`
  )
})
