/**
 * Search and why latency: Retrieval.search and Retrieval.why, keyword and hybrid,
 * over stores of 10,000 and 100,000 memories (support/corpus.ts: many projects plus global
 * ones), imported through Maintenance.importJsonl, with a few thousand outcomes recorded
 * through Commands.outcome so the evidence and gate have work to do. Both modes run on the
 * same store file and the same queries.
 *
 * Every measured query runs search then why, each timed on its own, after a warm-up, and the
 * bench checks they agree. Search appends a MemoriesRecalled event per call (a write
 * transaction): that is part of its cost and is measured as is.
 *
 * Hybrid runs the real `http` embedder (the OpenAI-compatible client) against
 * support/hash-embedding-server.mjs, a child process on loopback answering deterministic
 * vectors: each text's words feature-hashed into 512 signed buckets, L2-normalised. They are
 * not a model's vectors, and that is fair for latency only: sqlite-vec's KNN is a brute-force
 * scan whose cost depends on the number and length of the vectors, not their values (a real
 * 100,000-memory store with USE-lite would take over half an hour to embed here). Whether
 * hybrid finds better memories is bench/retrieval's question, not this one's. The query's
 * embedding call is timed apart (support/timed-embedder.ts wraps the real embedder) and hybrid
 * rows are reported without it; what USE-lite (`local`) costs per query is measured on its own
 * at the end, since that is what a user without an embedding server pays on top.
 *
 * Goals at 100,000: keyword search p95 < 15 ms; hybrid search p95 < 75 ms excluding the query
 * embedding; why < 2x search.
 *
 *   node bench/run.mjs search [--sizes 10000,100000] [--modes keyword,hybrid] [--queries 400] [--warmup 50]
 *                             [--outcomes 3000] [--local-queries 300] [--results FILE] [--mmap-mib N] [--cues]
 *   BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=bench/.data/prof" node bench/run.mjs search --sizes 100000 --modes hybrid
 *
 * `--results FILE` writes every measured query's search results (key, score, cosine) and why's
 * left-out list (content, stage) as JSON lines, to check that a change keeps results identical;
 * `--local-queries 0` skips the USE-lite timing. `--mmap-mib N` is a what-if: it sets
 * `PRAGMA mmap_size` on the measured connection instead of the 1 GiB src/store/sqlite/database.ts sets
 * (0 turns the map off), since sqlite-vec's KNN reads every vector chunk of its places and,
 * without a map, pays a read system call per 4 KiB page.
 */
import { writeFileSync } from "node:fs"
import { availableParallelism, loadavg } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect, Layer } from "effect"
import { DEFAULT_CONFIG } from "../src/config.js"
import type { Outcome } from "../src/domain/vocabulary.js"
import { Embedder, EmbedderLive, type EmbedderApi } from "../src/embeddings/embedder.js"
import { makeHttpEmbedder } from "../src/embeddings/http.js"
import { makeLocalEmbedder } from "../src/embeddings/local.js"
import { ftsMatchExpression } from "../src/retrieval/fts-query.js"
import { ensureVectors } from "../src/store/sqlite/vector-freshness.js"
import { runRanking } from "../src/retrieval/ranking-run.js"
import { AppLayerOn } from "../src/services/app.js"
import { Commands } from "../src/services/commands.js"
import { Maintenance } from "../src/services/maintenance.js"
import { DEFAULT_LIMIT, Retrieval } from "../src/services/retrieval.js"
import { SqliteStore as Store, SqliteStoreLive } from "../src/store/sqlite/sqlite-store.js"
import { sqliteReads } from "../src/store/sqlite/sqlite-reads.js"
import { generateMemories, makeRandom, toJsonl } from "./support/corpus.js"
import { addLearnedCues, withWrittenCues } from "./support/cue-corpus.js"
import { writeCueState } from "../src/store/sqlite/projections/cues.js"
import type { CueState } from "../src/projections/cue-state.js"
import type { MemoryId } from "../src/domain/ids.js"
import { startHashEmbeddingServer } from "./support/embedding-server.js"
import { environment, fmt, intArg, median, stringArg, withScratchDir } from "./support/measure.js"
import { BENCH_NOW, fixedClock } from "./support/sim-clock.js"
import { makeQueries, type BenchQuery } from "./support/search-queries.js"
import { printLatencyReport, type Measured, type Mode } from "./support/search-report.js"
import { timedEmbedder, type TimedEmbedder } from "./support/timed-embedder.js"

const sizes = listArg("sizes", [10_000, 100_000], Number)
const modes = listArg<Mode>("modes", ["keyword", "hybrid"], (s): Mode => {
  if (s !== "keyword" && s !== "hybrid") throw new Error("--modes takes keyword and/or hybrid")
  return s
})
const queryCount = intArg("queries", 400)
const warmup = intArg("warmup", 50)
const outcomeCount = intArg("outcomes", 3_000)
const localQueries = countArg("local-queries", 300)
const resultsFile = stringArg("results")
/** The store's own map size unless --mmap-mib says otherwise (0: no map). */
const mmapMib = stringArg("mmap-mib") === undefined ? undefined : countArg("mmap-mib", 0)
/** Two written and three learned cues per memory (support/cue-corpus.ts). */
const withCues = process.argv.includes("--cues")
const DIMENSIONS = 512
const ACTOR = { origin: "bench:search", agent: "bench" }

/** Imports the corpus and reports outcomes, with no embedder: the store both modes then search. */
const build = (size: number, dbPath: string): Promise<{ queries: BenchQuery[]; importSeconds: number }> =>
  Effect.gen(function* () {
    const maintenance = yield* Maintenance
    const commands = yield* Commands
    const r = makeRandom(size)
    const corpus = generateMemories(size)
    const started = performance.now()
    const imported = yield* maintenance.importJsonl(toJsonl(withCues ? withWrittenCues(corpus, r) : corpus), ACTOR)
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
    if (withCues) {
      const store = yield* Store
      const rows = store.db.prepare("SELECT id, project FROM memories").all() as { id: string; project: string | null }[]
      addLearnedCues(store.db, rows, corpus, r, BENCH_NOW)
    }
    return { queries: makeQueries(warmup + queryCount, corpus, r), importSeconds }
  }).pipe(runIn(dbPath, EmbedderLive({ provider: "none" })))

/**
 * Search then why for every query, through the services. With `timed` (hybrid), the vectors are
 * brought up to date first (timed, with progress), and each call's query embedding is read
 * back from the timed embedder and reported apart.
 */
const measure = (size: number, mode: Mode, dbPath: string, queries: ReadonlyArray<BenchQuery>, timed?: TimedEmbedder): Promise<Measured> =>
  Effect.gen(function* () {
    const retrieval = yield* Retrieval
    const store = yield* Store
    if (mmapMib !== undefined) store.db.pragma(`mmap_size = ${mmapMib * 1024 * 1024}`)
    let vectorSeconds: number | undefined
    if (timed) {
      const started = performance.now()
      let shown = -1
      yield* ensureVectors(store, timed.embedder, (done, total) => {
        const tenth = total === 0 ? 10 : Math.floor((done / total) * 10)
        if (tenth === shown) return
        shown = tenth
        console.log(`    vectors: ${fmt(done)} of ${fmt(total)} (${((performance.now() - started) / 1000).toFixed(0)} s)`)
      })
      vectorSeconds = (performance.now() - started) / 1000
      timed.take()
    }
    const embedCall = () => {
      if (!timed) return undefined
      const calls = timed.take()
      if (calls.length !== 1 || calls[0]!.texts !== 1) throw new Error(`expected one query embedding per call, saw ${calls.length}: did the vectors go stale?`)
      return calls[0]!
    }
    const run = (q: BenchQuery) => {
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      return Effect.flatMap(retrieval.search({ query: q.query, project: q.project }, ACTOR), (s) => {
        const t1 = performance.now()
        const c1 = process.cpuUsage()
        const searchEmbed = embedCall()
        return Effect.map(retrieval.why({ query: q.query, project: q.project }), (w) => {
          const t2 = performance.now()
          const c2 = process.cpuUsage()
          const whyEmbed = embedCall()
          if (s.mode !== mode || w.mode !== mode) throw new Error(`asked for ${mode}, search ran ${s.mode} and why ${w.mode}${s.notice ? `: ${s.notice}` : ""}`)
          if (w.results.length !== s.results.length || w.results.some((x, i) => x.memory.id !== s.results[i]!.memory.id)) {
            throw new Error(`search and why disagree on '${q.query}'`)
          }
          return { s, w, search: t1 - t0, why: t2 - t1, searchCpu: cpuMs(c0, c1), whyCpu: cpuMs(c1, c2), searchEmbed, whyEmbed }
        })
      })
    }
    for (const q of queries.slice(0, warmup)) yield* run(q)

    const out: Measured = {
      size, mode, search: [], why: [], searchCpu: [], whyCpu: [], rankingCpu: [], embed: [], embedCpu: [], ratio: [], matches: [], results: [], dump: [],
      ...(vectorSeconds === undefined ? {} : { vectorSeconds })
    }
    const count = store.db.prepare("SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?")
    for (const q of queries.slice(warmup)) {
      const t = yield* run(q)
      // Hybrid figures leave the query's embedding call out: it is reported on its own.
      const search = t.search - (t.searchEmbed?.wallMs ?? 0)
      const why = t.why - (t.whyEmbed?.wallMs ?? 0)
      out.search.push(search)
      out.why.push(why)
      out.searchCpu.push(t.searchCpu - (t.searchEmbed?.cpuMs ?? 0))
      out.whyCpu.push(t.whyCpu - (t.whyEmbed?.cpuMs ?? 0))
      if (t.searchEmbed && t.whyEmbed) out.embed.push(t.searchEmbed.wallMs, t.whyEmbed.wallMs), out.embedCpu.push(t.searchEmbed.cpuMs, t.whyEmbed.cpuMs)
      const vector = t.searchEmbed?.vectors[0]
      const request = { query: q.query, project: q.project, limit: DEFAULT_LIMIT }
      const c0 = process.cpuUsage()
      store.read((db) => runRanking(sqliteReads(db), request, BENCH_NOW, store.config, vector && { model: timed!.embedder.model, vector }))
      out.rankingCpu.push(cpuMs(c0, process.cpuUsage()))
      out.ratio.push(why / search)
      out.results.push(t.s.results.length)
      const match = ftsMatchExpression(q.query)
      out.matches.push(match === undefined ? 0 : (count.get(match) as { n: number }).n)
      if (resultsFile) {
        out.dump.push({
          size, mode, query: q.query, project: q.project,
          // Keys and contents, not ids: ids are random, so two runs compare only by these.
          results: t.s.results.map((r) => [r.memory.key, r.score, r.terms.relevance.cosine]),
          leftOut: t.w.leftOut.map((l) => [l.content, l.stage])
        })
      }
    }
    const resyncMs = timed && (yield* resyncAfterOutcome(store, timed))
    return resyncMs === undefined ? out : { ...out, resyncMs }
  }).pipe(runIn(dbPath, timed ? Layer.succeed(Embedder, timed.embedder) : EmbedderLive({ provider: "none" })))

/**
 * What the next hybrid search pays after an outcome rewrote one memory's learned cues (new
 * keys, the same texts): the sync it runs first compares every memory's and cue's texts with
 * what was filed. Rewritten here through the projection's own writer, as `addLearnedCues` did.
 */
const resyncAfterOutcome = (store: Store["Type"], timed: TimedEmbedder) =>
  Effect.gen(function* () {
    const row = store.db.prepare("SELECT memory_id AS id, state FROM cue_states LIMIT 1").get() as { id: string; state: string } | undefined
    if (row === undefined) return undefined
    store.db.transaction(() => writeCueState(store.db, row.id as MemoryId, JSON.parse(row.state) as CueState))()
    const started = performance.now()
    yield* ensureVectors(store, timed.embedder)
    timed.take()
    return performance.now() - started
  })

const runIn = (dbPath: string, embedder: Layer.Layer<Embedder>) => <A, E>(program: Effect.Effect<A, E, Maintenance | Commands | Retrieval | Store>) =>
  program.pipe(Effect.withClock(fixedClock(BENCH_NOW)), Effect.provide(AppLayerOn(SqliteStoreLive(dbPath, DEFAULT_CONFIG), embedder)), Effect.scoped, Effect.runPromise)

/** What a user without an embedding server pays per query: USE-lite in-process, one query a call. */
const localQueryEmbedding = async (queries: ReadonlyArray<BenchQuery>) => {
  const local: EmbedderApi = makeLocalEmbedder()
  const started = performance.now()
  await Effect.runPromise(local.embed(["load the model"]))
  const loadSeconds = (performance.now() - started) / 1000
  const wall: number[] = []
  const cpu: number[] = []
  for (const q of queries) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await Effect.runPromise(local.embed([q.query]))
    wall.push(performance.now() - t0)
    cpu.push(cpuMs(c0, process.cpuUsage()))
  }
  return { loadSeconds, wall, cpu }
}

const cpuMs = (a: NodeJS.CpuUsage, b: NodeJS.CpuUsage) => (b.user - a.user + b.system - a.system) / 1000
const loads = () => loadavg().map((l) => l.toFixed(1)).join(" ")

await withScratchDir("search", async (dir) => {
  console.log(
    `search: sizes ${sizes.map((s) => fmt(s)).join(", ")}; modes ${modes.join(", ")}; ${queryCount} queries after ${warmup} warm-up, ` +
      `${fmt(outcomeCount)} outcome reports; ${mmapMib !== undefined ? `WHAT-IF mmap_size ${mmapMib} MiB; ` : ""}${environment()}; load average ${loads()}`
  )
  const server = modes.includes("hybrid") ? await startHashEmbeddingServer(DIMENSIONS) : undefined
  const all: Measured[] = []
  let lastQueries: BenchQuery[] = []
  try {
    for (const size of sizes) {
      const dbPath = join(dir, `search-${size}.db`)
      const { queries, importSeconds } = await build(size, dbPath)
      lastQueries = queries
      console.log(`  ${fmt(size)} memories: imported in ${importSeconds.toFixed(1)} s; load average ${loads()}`)
      for (const mode of modes) {
        const timed = mode === "hybrid" ? timedEmbedder(makeHttpEmbedder({ url: server!.url, model: `hash-${DIMENSIONS}` })) : undefined
        const m = await measure(size, mode, dbPath, queries, timed)
        all.push(m)
        console.log(
          `    ${mode}: ${m.vectorSeconds === undefined ? "" : `${fmt(size)} vectors built in ${m.vectorSeconds.toFixed(1)} s; `}` +
            `matches per query p50 ${fmt(median(m.matches))}; results per query p50 ${median(m.results)}; load average ${loads()}` +
            (m.resyncMs === undefined ? "" : `; sync after an outcome rewrote one memory's cues ${m.resyncMs.toFixed(0)} ms`)
        )
      }
    }
  } finally {
    server?.close()
  }
  if (resultsFile) writeFileSync(resultsFile, all.flatMap((m) => m.dump.map((d) => JSON.stringify(d))).join("\n") + "\n")

  const local = localQueries > 0 ? await localQueryEmbedding(lastQueries.slice(0, localQueries)) : undefined
  printLatencyReport(all, local, `load average at the end: ${loads()} (on ${availableParallelism()} cores)`)
})

function listArg<A>(name: string, fallback: A[], parse: (s: string) => A): A[] {
  const args = process.argv.slice(2)
  const i = args.indexOf(`--${name}`)
  if (i < 0) return fallback
  const raw = (args[i + 1] ?? "").split(",").filter((s) => s.length > 0)
  const values = raw.map((s) => parse(s.replace(/_/g, "")))
  if (values.length === 0 || values.some((v) => typeof v === "number" && (!Number.isInteger(v) || v <= 0))) {
    throw new Error(`--${name} takes a comma-separated list${typeof fallback[0] === "number" ? " of positive integers" : ""}`)
  }
  return values
}

function countArg(name: string, fallback: number): number {
  const value = stringArg(name)
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} takes a whole number (0 to skip)`)
  return n
}
