/**
 * Search and why latency (issue 3): Retrieval.search and Retrieval.why in keyword mode over
 * stores of 10,000 and 100,000 memories (support/corpus.ts: many projects plus global ones),
 * imported through Maintenance.importJsonl, with a few thousand outcomes recorded through
 * Commands.outcome so the evidence and gate have work to do.
 *
 * Every measured query runs search then why, each timed on its own, after a warm-up. Search
 * appends a MemoriesRecalled event per call (a write transaction): that is part of its cost
 * and is measured as is. Goals at 100,000: search p95 < 15 ms; why < 2x search.
 *
 *   node bench/run.mjs search [--sizes 10000,100000] [--queries 400] [--warmup 50] [--outcomes 3000]
 *   BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=bench/.data/prof" node bench/run.mjs search --sizes 100000
 */
import { availableParallelism, loadavg } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import type { Outcome } from "../src/domain/vocabulary.js"
import { ftsMatchExpression } from "../src/retrieval/fts-query.js"
import { runRanking } from "../src/retrieval/ranking-run.js"
import { AppLayer } from "../src/services/app.js"
import { Commands } from "../src/services/commands.js"
import { Maintenance } from "../src/services/maintenance.js"
import { DEFAULT_LIMIT, Retrieval } from "../src/services/retrieval.js"
import { Store } from "../src/services/store.js"
import { generateMemories, makeRandom, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, median, withScratchDir } from "./support/measure.js"
import { BENCH_NOW, fixedClock } from "./support/sim-clock.js"
import { makeQueries, type BenchQuery } from "./support/search-queries.js"

const sizes = listArg("sizes", [10_000, 100_000])
const queryCount = intArg("queries", 400)
const warmup = intArg("warmup", 50)
const outcomeCount = intArg("outcomes", 3_000)
const GOAL_SEARCH_P95_MS = 15
const GOAL_WHY_RATIO = 2
const ACTOR = { origin: "bench:search", agent: "bench" }

/**
 * Search modes measured. Hybrid (keyword + vector, brief 4.1 and 7) does not exist yet: when
 * the Embedder lands, add "hybrid" here, build the store with an embedding provider, and
 * report its rows next to keyword's (same corpus, same queries).
 */
const MODES = ["keyword"] as const

interface Measured {
  readonly size: number
  readonly mode: (typeof MODES)[number]
  readonly search: number[]
  readonly why: number[]
  /** CPU time (user + system) of each call: on a shared machine, the part other processes cannot inflate. */
  readonly searchCpu: number[]
  readonly whyCpu: number[]
  /** CPU time of the ranking alone (what search does before it appends MemoriesRecalled). */
  readonly rankingCpu: number[]
  /** why / search for each query. */
  readonly ratio: number[]
  /** Keyword matches per query, scope aside: how much BM25 work each query asks for. */
  readonly matches: number[]
  readonly results: number[]
  readonly importSeconds: number
}

const measure = (size: number, dbPath: string): Promise<Measured> =>
  Effect.gen(function* () {
    const maintenance = yield* Maintenance
    const commands = yield* Commands
    const retrieval = yield* Retrieval
    const store = yield* Store
    const r = makeRandom(size)

    const corpus = generateMemories(size)
    const started = performance.now()
    const imported = yield* maintenance.importJsonl(toJsonl(corpus), ACTOR)
    const importSeconds = (performance.now() - started) / 1000
    if (imported.imported !== size) throw new Error(`expected ${size} memories, imported ${imported.imported}`)

    // Outcomes as agents report them: one to three memories per task, mostly worked; some
    // memories collect two failures and sit behind the gate.
    for (let i = 0; i < outcomeCount; i++) {
      const ids = Array.from({ length: r.int(1, 3) }, () => r.pick(imported.ids))
      const x = r.next()
      const outcome: Outcome = x < 0.6 ? "worked" : x < 0.9 ? "failed" : "partial"
      yield* commands.outcome([...new Set(ids)], outcome, {}, ACTOR)
      if (outcome === "failed" && r.chance(0.3)) yield* commands.outcome([ids[0]!], "failed", {}, ACTOR)
    }

    const queries = makeQueries(warmup + queryCount, corpus, r)
    const run = (q: BenchQuery) => {
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      return Effect.flatMap(retrieval.search({ query: q.query, project: q.project }, ACTOR), (s) => {
        const t1 = performance.now()
        const c1 = process.cpuUsage()
        return Effect.map(retrieval.why({ query: q.query, project: q.project }), (w) => {
          const t2 = performance.now()
          const c2 = process.cpuUsage()
          if (w.results.length !== s.results.length || w.results.some((x, i) => x.memory.id !== s.results[i]!.memory.id)) {
            throw new Error(`search and why disagree on '${q.query}'`)
          }
          return { search: t1 - t0, why: t2 - t1, searchCpu: cpuMs(c0, c1), whyCpu: cpuMs(c1, c2), results: s.results.length }
        })
      })
    }
    for (const q of queries.slice(0, warmup)) yield* run(q)

    const out: Measured = { size, mode: "keyword", search: [], why: [], searchCpu: [], whyCpu: [], rankingCpu: [], ratio: [], matches: [], results: [], importSeconds }
    const count = store.db.prepare("SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?")
    for (const q of queries.slice(warmup)) {
      const t = yield* run(q)
      out.search.push(t.search)
      out.why.push(t.why)
      out.searchCpu.push(t.searchCpu)
      out.whyCpu.push(t.whyCpu)
      const c0 = process.cpuUsage()
      store.read((db) => runRanking(db, { query: q.query, project: q.project, limit: DEFAULT_LIMIT }, BENCH_NOW, store.config))
      out.rankingCpu.push(cpuMs(c0, process.cpuUsage()))
      out.ratio.push(t.why / t.search)
      out.results.push(t.results)
      const match = ftsMatchExpression(q.query)
      out.matches.push(match === undefined ? 0 : (count.get(match) as { n: number }).n)
    }
    return out
  }).pipe(Effect.withClock(fixedClock(BENCH_NOW)), Effect.provide(AppLayer(dbPath)), Effect.scoped, Effect.runPromise)

const cpuMs = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user - a.user + b.system - a.system) / 1000

/** Nearest-rank percentile. */
const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

function listArg(name: string, fallback: number[]): number[] {
  const args = process.argv.slice(2)
  const i = args.indexOf(`--${name}`)
  if (i < 0) return fallback
  const values = (args[i + 1] ?? "").split(",").map((s) => Number(s.replace(/_/g, "")))
  if (values.length === 0 || values.some((v) => !Number.isInteger(v) || v <= 0)) throw new Error(`--${name} takes positive integers, comma-separated`)
  return values
}

const ms = (x: number) => x.toFixed(2)

await withScratchDir("search", async (dir) => {
  console.log(`search: sizes ${sizes.map((s) => fmt(s)).join(", ")}; ${queryCount} queries after ${warmup} warm-up, ${fmt(outcomeCount)} outcome reports; ${environment()}; load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}`)
  const all: Measured[] = []
  for (const size of sizes) {
    const m = await measure(size, join(dir, `search-${size}.db`))
    all.push(m)
    console.log(
      `  ${fmt(size)} memories: imported in ${m.importSeconds.toFixed(1)} s; matches per query p50 ${fmt(median(m.matches))}, ` +
        `p95 ${fmt(percentile(m.matches, 95))}; results per query p50 ${median(m.results)}`
    )
  }

  const header = ["memories", "mode", "search p50", "search p95", "why p50", "why p95", "why/search p50", "why/search p95", "per-query why/search (median)"]
  console.log(`\n| ${header.join(" | ")} |\n|${header.map(() => " --- ").join("|")}|`)
  for (const m of all) {
    const row = [
      fmt(m.size),
      m.mode,
      `${ms(median(m.search))} ms`,
      `${ms(percentile(m.search, 95))} ms`,
      `${ms(median(m.why))} ms`,
      `${ms(percentile(m.why, 95))} ms`,
      (median(m.why) / median(m.search)).toFixed(2),
      (percentile(m.why, 95) / percentile(m.search, 95)).toFixed(2),
      median(m.ratio).toFixed(2)
    ]
    console.log(`| ${row.join(" | ")} |`)
  }
  console.log("| (hybrid: not implemented yet; see MODES in bench/search.ts) | | | | | | | | |")

  const cpuHeader = ["memories", "mode", "search cpu p50", "search cpu p95", "of which ranking p50", "ranking p95", "why cpu p50", "why cpu p95", "why/search cpu p50"]
  console.log(`\nCPU time per call (user + system of this process; less sensitive to other load):`)
  console.log(`| ${cpuHeader.join(" | ")} |\n|${cpuHeader.map(() => " --- ").join("|")}|`)
  for (const m of all) {
    const row = [
      fmt(m.size),
      m.mode,
      `${ms(median(m.searchCpu))} ms`,
      `${ms(percentile(m.searchCpu, 95))} ms`,
      `${ms(median(m.rankingCpu))} ms`,
      `${ms(percentile(m.rankingCpu, 95))} ms`,
      `${ms(median(m.whyCpu))} ms`,
      `${ms(percentile(m.whyCpu, 95))} ms`,
      (median(m.whyCpu) / median(m.searchCpu)).toFixed(2)
    ]
    console.log(`| ${row.join(" | ")} |`)
  }

  console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(" ")} (on ${availableParallelism()} cores)`)

  const largest = all.find((m) => m.size === 100_000)
  if (largest) {
    const p95 = percentile(largest.search, 95)
    const ratio = percentile(largest.why, 95) / p95
    console.log(
      `\nat 100,000: search p95 ${ms(p95)} ms (${p95 < GOAL_SEARCH_P95_MS ? "meets" : "misses"} the goal of < ${GOAL_SEARCH_P95_MS} ms); ` +
        `why p95 is ${ratio.toFixed(2)}x search p95 (${ratio < GOAL_WHY_RATIO ? "meets" : "misses"} the goal of < ${GOAL_WHY_RATIO}x)`
    )
  }
})
