/**
 * Retrieval quality: imports the hand-written data set in bench/retrieval into a fresh store
 * through the real services, runs every query through `search` (limit 10, the query's
 * project), and reports MRR and hit@1/3/5 per kind next to a plain BM25 baseline computed in
 * the same process. For negatives it reports how often `context --query` injects nothing.
 *
 * Twice: without cues (the memories' text alone), and with each memory's two written cues.
 * Figures with cues are reported for the second batch of queries only, which was written
 * after the cues and without looking at them; each set is also split into its tuning half
 * (odd ids, the only one tuned on) and its held-out half.
 *
 *   node bench/run.mjs retrieval [--misses] [--with-cues-only] [--pg postgres://SERVER]
 */
import { Effect } from "effect"
import { DEFAULT_CONFIG, type LedgerConfig } from "../src/config.js"
import { AppLayer } from "../src/services/app.js"
import { Commands } from "../src/services/commands.js"
import { Maintenance } from "../src/services/maintenance.js"
import { Retrieval } from "../src/services/retrieval.js"
import { runBaseline } from "./retrieval/bm25-baseline.js"
import { formatTable, queryHalf, summarize, type QueryOutcome } from "./retrieval/metrics.js"
import { loadDataset, type BenchQuery } from "./retrieval/validate.js"
import { pgServerArg, scratchStore } from "./support/scratch-store.js"

const actor = { origin: "bench", agent: "bench" }

export interface QualityRun {
  readonly outcomes: QueryOutcome[]
  /** Negatives for which context --query offered nothing. */
  readonly negativesWithoutContext: number
  readonly negatives: number
  /** The negatives for which context --query offered nothing, by id. */
  readonly emptyContext: ReadonlySet<string>
}

/** Runs the whole data set against a fresh store with `config`. */
export const runQuality = async (config: LedgerConfig = DEFAULT_CONFIG, options: { readonly cues?: boolean; readonly also?: (query: string) => ReadonlyArray<string> } = {}): Promise<QualityRun> => {
  const { memories, queries } = loadDataset()
  const store = await scratchStore("retrieval")
  const program = Effect.gen(function* () {
    const maintenance = yield* Maintenance
    const commands = yield* Commands
    const retrieval = yield* Retrieval
    const lines = memories.map((m) =>
      JSON.stringify({ content: m.content, category: m.category, project: m.project, tags: m.tags, ...(options.cues && m.cues ? { cues: m.cues } : {}) })
    )
    const { ids } = yield* maintenance.importJsonl(lines.join("\n"), actor)
    const idOf = new Map(memories.map((m, i) => [m.key, ids[i]!]))
    const keyOf = new Map(memories.map((m, i) => [ids[i]!, m.key]))
    for (const m of memories) if (m.supersedes) yield* commands.supersede(idOf.get(m.supersedes)!, idOf.get(m.key)!, actor)

    const outcomes: QueryOutcome[] = []
    let negatives = 0
    let negativesWithoutContext = 0
    const emptyContext = new Set<string>()
    for (const q of queries) {
      const also = options.also?.(q.query) ?? []
      const found = yield* retrieval.search({ query: q.query, project: q.project, limit: 10, ...(also.length > 0 ? { also } : {}) }, actor)
      outcomes.push({ id: q.id, kind: q.kind, relevant: q.relevant, returned: found.results.map((r) => keyOf.get(r.memory.id) ?? "?") })
      if (q.kind === "negative") {
        negatives++
        const context = yield* retrieval.context({ project: q.project, query: q.query, ...(also.length > 0 ? { also } : {}) }, actor)
        if (context.included.length === 0) {
          negativesWithoutContext++
          emptyContext.add(q.id)
        }
      }
    }
    return { outcomes, negatives, negativesWithoutContext, emptyContext }
  })
  return Effect.runPromise(Effect.scoped(program.pipe(Effect.provide(AppLayer(store.location, config))))).finally(store.remove)
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

/** One table per set: the queries kept by `keep`, all of them, then each half. */
export const printSets = (title: string, run: QualityRun, keep: (q: BenchQuery) => boolean, queries: ReadonlyArray<BenchQuery>): void => {
  const byId = new Map(queries.map((q) => [q.id, q]))
  for (const [name, half] of [["all", undefined], ["tuning half", "tune"], ["held-out half", "holdout"]] as const) {
    const inSet = (id: string) => keep(byId.get(id)!) && (half === undefined || queryHalf(id) === half)
    const outcomes = run.outcomes.filter((o) => inSet(o.id))
    const negatives = queries.filter((q) => q.kind === "negative" && inSet(q.id))
    const empty = negatives.filter((q) => run.emptyContext.has(q.id)).length
    console.log(`\n${title}, ${name} (${outcomes.length} queries)\n`)
    console.log(formatTable(summarize(outcomes)))
    console.log(`context --query on negatives injected nothing in ${empty}/${negatives.length} (${((100 * empty) / Math.max(1, negatives.length)).toFixed(0)}%)`)
  }
}

if (process.argv[1]?.endsWith("/retrieval.mjs")) {
  const started = Date.now()
  const { queries } = loadDataset()
  const embedder = process.env.MEMLEDGER_EMBEDDER ?? "none"
  const mode = embedder === "none" ? "keyword mode" : `hybrid, MEMLEDGER_EMBEDDER=${embedder}`
  console.log(`memledger search (${mode}, default config), limit 10, on ${pgServerArg() === undefined ? "SQLite" : "PostgreSQL"}`)
  if (!process.argv.includes("--with-cues-only")) {
    const plain = await runQuality()
    printSets("without cues, every query", plain, () => true, queries)
    if (process.argv.includes("--misses")) printMisses(plain.outcomes, queries)
  }
  const withCues = await runQuality(DEFAULT_CONFIG, { cues: true })
  printSets("with written cues, second batch", withCues, (q) => q.batch === 2, queries)
  if (process.argv.includes("--misses")) printMisses(withCues.outcomes.filter((o) => queries.find((q) => q.id === o.id)!.batch === 2), queries)
  console.log(`\nBM25 baseline (FTS5 porter, content only, words OR'ed), limit 10\n`)
  console.log(formatTable(summarize(runBaseline())))
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
