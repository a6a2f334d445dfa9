/**
 * Retrieval quality (issue 3): imports the hand-written data set in bench/retrieval into a
 * fresh store through the real services, runs every query through `search` (limit 10, the
 * query's project), and reports MRR and hit@1/3/5 per kind next to a plain BM25 baseline
 * computed in the same process. For negatives it reports how often `context --query` injects
 * nothing.
 *
 *   node bench/run.mjs retrieval [--misses]
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../src/config.js"
import { AppLayer } from "../src/services/app.js"
import { Commands } from "../src/services/commands.js"
import { Maintenance } from "../src/services/maintenance.js"
import { Retrieval } from "../src/services/retrieval.js"
import { runBaseline } from "./retrieval/bm25-baseline.js"
import { formatTable, summarize, type QueryOutcome } from "./retrieval/metrics.js"
import { loadDataset, type BenchQuery } from "./retrieval/validate.js"

const actor = { origin: "bench", agent: "bench" }

export interface QualityRun {
  readonly outcomes: QueryOutcome[]
  /** Negatives for which context --query offered nothing. */
  readonly negativesWithoutContext: number
  readonly negatives: number
}

/** Runs the whole data set against a fresh store with `config`. */
export const runQuality = (config: LedgerConfig = DEFAULT_CONFIG): Promise<QualityRun> => {
  const { memories, queries } = loadDataset()
  const dir = mkdtempSync(join(tmpdir(), "memledger-retrieval-"))
  const program = Effect.gen(function* () {
    const maintenance = yield* Maintenance
    const commands = yield* Commands
    const retrieval = yield* Retrieval
    const lines = memories.map((m) => JSON.stringify({ content: m.content, category: m.category, project: m.project, tags: m.tags }))
    const { ids } = yield* maintenance.importJsonl(lines.join("\n"), actor)
    const idOf = new Map(memories.map((m, i) => [m.key, ids[i]!]))
    const keyOf = new Map(memories.map((m, i) => [ids[i]!, m.key]))
    for (const m of memories) if (m.supersedes) yield* commands.supersede(idOf.get(m.supersedes)!, idOf.get(m.key)!, actor)

    const outcomes: QueryOutcome[] = []
    let negatives = 0
    let negativesWithoutContext = 0
    for (const q of queries) {
      const found = yield* retrieval.search({ query: q.query, project: q.project, limit: 10 }, actor)
      outcomes.push({ id: q.id, kind: q.kind, relevant: q.relevant, returned: found.results.map((r) => keyOf.get(r.memory.id) ?? "?") })
      if (q.kind === "negative") {
        negatives++
        const context = yield* retrieval.context({ project: q.project, query: q.query }, actor)
        if (context.included.length === 0) negativesWithoutContext++
      }
    }
    return { outcomes, negatives, negativesWithoutContext }
  })
  return Effect.runPromise(Effect.scoped(program.pipe(Effect.provide(AppLayer(join(dir, "bench.db"), config))))).finally(() =>
    rmSync(dir, { recursive: true, force: true })
  )
}

const printMisses = (outcomes: ReadonlyArray<QueryOutcome>, queries: ReadonlyArray<BenchQuery>) => {
  const text = new Map(queries.map((q) => [q.id, q.query]))
  for (const o of outcomes) {
    const rank = o.returned.findIndex((k) => o.relevant.includes(k))
    if (o.relevant.length > 0 && (rank < 0 || rank > 0)) {
      console.log(`  ${o.id} ${o.kind.padEnd(10)} ${rank < 0 ? "missed " : `rank ${rank + 1} `} "${text.get(o.id)}" -> top ${o.returned[0] ?? "-"}, want ${o.relevant[0]}`)
    }
  }
}

if (process.argv[1]?.endsWith("/retrieval.mjs")) {
  const started = Date.now()
  const run = await runQuality()
  const embedder = process.env.MEMLEDGER_EMBEDDER ?? "none"
  const mode = embedder === "none" ? "keyword mode" : `hybrid, MEMLEDGER_EMBEDDER=${embedder}`
  console.log(`memledger search (${mode}, default config), limit 10\n`)
  console.log(formatTable(summarize(run.outcomes)))
  console.log(`\ncontext --query on negatives injected nothing in ${run.negativesWithoutContext}/${run.negatives} (${((100 * run.negativesWithoutContext) / run.negatives).toFixed(0)}%)`)
  console.log(`\nBM25 baseline (FTS5 porter, content only, words OR'ed), limit 10\n`)
  console.log(formatTable(summarize(runBaseline())))
  if (process.argv.includes("--misses")) {
    console.log("\nanswerable queries not ranked first:")
    printMisses(run.outcomes, loadDataset().queries)
  }
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
