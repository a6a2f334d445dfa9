/**
 * Where a keyword search's time goes at 100,000 memories with cues: the two full-text
 * statements of keywordCandidates (the memories' own text, and their learned cues) timed one by
 * one, in CPU, over the search bench's queries, with how many rows each scored. The store is
 * the search bench's (`--cues`): written and learned cues, outcomes. `--store FILE` keeps it
 * (built when the file is missing, reused when it is there, with its queries beside it).
 *
 * `--optimize` is a what-if: FTS5's 'optimize' merges each index into one segment first (it
 * changes the file, so give it a copy of a kept store).
 *
 *   node bench/run.mjs cue-statements [--memories 100000] [--queries 400] [--store FILE] [--optimize]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { DEFAULT_CONFIG } from "../src/config.js"
import type { Outcome } from "../src/domain/vocabulary.js"
import { EmbedderLive } from "../src/embeddings/embedder.js"
import { ftsMatchExpression } from "../src/retrieval/fts-query.js"
import { AppLayerOn } from "../src/services/app.js"
import { Commands } from "../src/services/commands.js"
import { Maintenance } from "../src/services/maintenance.js"
import { DEFAULT_LIMIT } from "../src/services/retrieval.js"
import { keywordCandidates } from "../src/store/sqlite/retrieval/keyword-matches.js"
import { SqliteStore as Store, SqliteStoreLive } from "../src/store/sqlite/sqlite-store.js"
import { inPlaces, placeTokensOf } from "../src/store/sqlite/projections/fts-scope.js"
import { cueKeyRange } from "../src/store/sqlite/projections/cues.js"
import { generateMemories, makeRandom, toJsonl } from "./support/corpus.js"
import { addLearnedCues, withWrittenCues } from "./support/cue-corpus.js"
import { environment, fmt, intArg, median, stringArg, withScratchDir } from "./support/measure.js"
import { BENCH_NOW, fixedClock } from "./support/sim-clock.js"
import { makeQueries, type BenchQuery } from "./support/search-queries.js"

const size = intArg("memories", 100_000)
const queryCount = intArg("queries", 400)
const kept = stringArg("store")
const optimize = process.argv.includes("--optimize")
const ACTOR = { origin: "bench:cue-statements", agent: "bench" }

const runIn = (dbPath: string) => <A, E>(program: Effect.Effect<A, E, Maintenance | Commands | Store>) =>
  program.pipe(
    Effect.withClock(fixedClock(BENCH_NOW)),
    Effect.provide(AppLayerOn(SqliteStoreLive(dbPath, DEFAULT_CONFIG), EmbedderLive({ provider: "none" }))),
    Effect.scoped,
    Effect.runPromise
  )

/** As bench/search.ts builds its `--cues` store. */
const build = (dbPath: string): Promise<BenchQuery[]> =>
  Effect.gen(function* () {
    const maintenance = yield* Maintenance
    const commands = yield* Commands
    const r = makeRandom(size)
    const corpus = generateMemories(size)
    const imported = yield* maintenance.importJsonl(toJsonl(withWrittenCues(corpus, r)), ACTOR)
    for (let i = 0; i < 3_000; i++) {
      const ids = Array.from({ length: r.int(1, 3) }, () => r.pick(imported.ids))
      const x = r.next()
      const outcome: Outcome = x < 0.6 ? "worked" : x < 0.9 ? "failed" : "partial"
      yield* commands.outcome([...new Set(ids)], outcome, {}, ACTOR)
      if (outcome === "failed" && r.chance(0.3)) yield* commands.outcome([ids[0]!], "failed", {}, ACTOR)
    }
    const store = yield* Store
    const rows = store.db.prepare("SELECT id, project FROM memories").all() as { id: string; project: string | null }[]
    addLearnedCues(store.db, rows, corpus, r, BENCH_NOW)
    return makeQueries(50 + queryCount, corpus, r)
  }).pipe(runIn(dbPath))

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since)
  return (d.user + d.system) / 1000
}
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!

const measure = (dbPath: string, queries: BenchQuery[]) =>
  Effect.gen(function* () {
    const store = yield* Store
    const config = store.config
    const db = store.db
    const segments = (index: string) => (db.prepare(`SELECT count(DISTINCT segid) AS n FROM ${index}_idx`).get() as { n: number }).n
    if (optimize) for (const index of ["memories_fts", "cues_fts"]) db.exec(`INSERT INTO ${index}(${index}) VALUES ('optimize')`)
    console.log(`  segments: memories_fts ${segments("memories_fts")}, cues_fts ${segments("cues_fts")}`)
    const content = db.prepare(
      `SELECT rowid AS key, -bm25(memories_fts, ${config.fieldWeights.join(", ")}, 0) AS relevance FROM memories_fts
        WHERE memories_fts MATCH ? ORDER BY relevance DESC LIMIT ?`
    )
    const cues = db.prepare(
      `SELECT rowid AS key, -bm25(cues_fts, 1, ${config.fieldWeights[4]}, 0) AS relevance FROM cues_fts
        WHERE cues_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY relevance DESC LIMIT ?`
    )
    const countCues = db.prepare(`SELECT count(*) AS n FROM cues_fts WHERE cues_fts MATCH ? AND rowid BETWEEN ? AND ?`)
    const countContent = db.prepare(`SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?`)
    const t = { content: [] as number[], cues: [] as number[], all: [] as number[], contentRows: [] as number[], cueRows: [] as number[] }
    for (const [i, q] of queries.entries()) {
      const words = ftsMatchExpression(q.query)
      if (words === undefined) continue
      const match = inPlaces(words, placeTokensOf(q.project, true, undefined))
      let c0 = process.cpuUsage()
      content.all(match, 200)
      const contentMs = cpuMs(c0)
      const places = q.project === null ? [null] : [null, q.project]
      c0 = process.cpuUsage()
      let cueRows = 0
      for (const place of places) {
        const range = cueKeyRange(db, place)
        if (range === undefined) continue
        cues.all(`{text code} : (${words})`, range.first, range.last, 200)
      }
      const cueMs = cpuMs(c0)
      for (const place of places) {
        const range = cueKeyRange(db, place)
        if (range !== undefined) cueRows += (countCues.get(`{text code} : (${words})`, range.first, range.last) as { n: number }).n
      }
      c0 = process.cpuUsage()
      keywordCandidates(db, [q.query], { project: q.project }, DEFAULT_LIMIT, config, BENCH_NOW)
      const allMs = cpuMs(c0)
      if (i < 50) continue
      t.content.push(contentMs)
      t.cues.push(cueMs)
      t.all.push(allMs)
      t.contentRows.push((countContent.get(match) as { n: number }).n)
      t.cueRows.push(cueRows)
    }
    const line = (name: string, xs: number[]) => console.log(`  ${name.padEnd(28)} p50 ${median(xs).toFixed(2)}  p95 ${p95(xs).toFixed(2)}`)
    line("content statement (ms CPU)", t.content)
    line("cue statements (ms CPU)", t.cues)
    line("keywordCandidates (ms CPU)", t.all)
    line("content rows scored", t.contentRows)
    line("cue rows scored", t.cueRows)
  }).pipe(runIn(dbPath))

const run = async (dbPath: string) => {
  const queriesFile = `${dbPath}.queries.json`
  if (!existsSync(dbPath) || !existsSync(queriesFile)) writeFileSync(queriesFile, JSON.stringify(await build(dbPath)))
  console.log(`cue-statements: ${fmt(size)} memories, ${queryCount} queries; ${environment()}`)
  await measure(dbPath, JSON.parse(readFileSync(queriesFile, "utf8")) as BenchQuery[])
}

await (kept === undefined ? withScratchDir("cue-statements", (dir) => run(join(dir, "store.db"))) : run(kept))
