/**
 * Cue learning, simulated over the retrieval data set: for each second-batch paraphrase,
 * conversation 1 asks it and (mostly) misses, finds the memory by a second search in the
 * memory's own words, and reports that it worked. Conversation 2 then asks the same question,
 * and its rewording (bench/retrieval/rewordings.jsonl, written from the question alone). Then
 * every conversation 1 is forgotten and conversation 2 asks both again. Memories are imported
 * without their written cues, so what is measured is what the log taught.
 *
 *   node bench/run.mjs cues
 *   MEMLEDGER_EMBEDDER=local node bench/run.mjs cues   # hybrid: learned cues' vectors too
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { DEFAULT_CONFIG } from "../src/config.js"
import { AppLayer } from "../src/services/app.js"
import { Commands } from "../src/services/commands.js"
import { Maintenance } from "../src/services/maintenance.js"
import { Retrieval } from "../src/services/retrieval.js"
import { datasetDir, loadDataset } from "./retrieval/validate.js"
import { hitAt, reciprocalRank } from "./retrieval/metrics.js"

const STAGES = ["asked first", "reworded, before any outcome", "asked again", "reworded", "asked again, conversation 1 forgotten", "reworded, conversation 1 forgotten"] as const
type Stage = (typeof STAGES)[number]

const rewordings = new Map(
  readFileSync(join(datasetDir(), "rewordings.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { id: string; rewording: string })
    .map((r) => [r.id, r.rewording])
)

const program = Effect.gen(function* () {
  const { memories, queries } = loadDataset()
  const maintenance = yield* Maintenance
  const commands = yield* Commands
  const retrieval = yield* Retrieval
  const lines = memories.map((m) => JSON.stringify({ content: m.content, category: m.category, project: m.project, tags: m.tags }))
  const { ids } = yield* maintenance.importJsonl(lines.join("\n"), { origin: "bench", agent: "bench" })
  const idOf = new Map(memories.map((m, i) => [m.key, ids[i]!]))
  const keyOf = new Map(memories.map((m, i) => [ids[i]!, m.key]))
  for (const m of memories) if (m.supersedes) yield* commands.supersede(idOf.get(m.supersedes)!, idOf.get(m.key)!, { origin: "bench", agent: "bench" })

  const cases = queries.filter((q) => q.kind === "paraphrase" && q.batch === 2 && rewordings.has(q.id))
  const ranks = new Map<Stage, Array<{ rr: number; hit1: boolean; hit3: boolean }>>(STAGES.map((s) => [s, []]))
  const ask = (stage: Stage, query: string, project: string | null, relevant: ReadonlyArray<string>, origin: string) =>
    Effect.map(retrieval.search({ query, project, limit: 10 }, { origin, agent: origin.split(":")[0]! }), (found) => {
      const returned = found.results.map((r) => keyOf.get(r.memory.id) ?? "?")
      ranks.get(stage)!.push({ rr: reciprocalRank(returned, relevant), hit1: hitAt(returned, relevant, 1), hit3: hitAt(returned, relevant, 3) })
    })

  for (const q of cases) {
    const first = `claude-code:session/first-${q.id}`
    const target = memories.find((m) => m.key === q.relevant[0])!
    yield* ask("asked first", q.query, q.project, q.relevant, first)
    yield* ask("reworded, before any outcome", rewordings.get(q.id)!, q.project, q.relevant, `codex:thread/zero-${q.id}`)
    // The second search an agent makes once its own words failed: the memory's words.
    yield* retrieval.search({ query: target.content.split(/\s+/).slice(0, 8).join(" "), project: q.project }, { origin: first, agent: "claude-code" })
    yield* commands.outcome([idOf.get(target.key)!], "worked", {}, { origin: first, agent: "claude-code" })
  }
  for (const q of cases) {
    yield* ask("asked again", q.query, q.project, q.relevant, `codex:thread/second-${q.id}`)
    yield* ask("reworded", rewordings.get(q.id)!, q.project, q.relevant, `codex:thread/second-${q.id}`)
  }
  for (const q of cases) yield* commands.forgetConversation(`claude-code:session/first-${q.id}`, false, { origin: "cli", agent: "cli" })
  for (const q of cases) {
    yield* ask("asked again, conversation 1 forgotten", q.query, q.project, q.relevant, `codex:thread/third-${q.id}`)
    yield* ask("reworded, conversation 1 forgotten", rewordings.get(q.id)!, q.project, q.relevant, `codex:thread/third-${q.id}`)
  }
  return { cases: cases.length, ranks }
})

const dir = mkdtempSync(join(tmpdir(), "memledger-cues-"))
try {
  const { cases, ranks } = await Effect.runPromise(Effect.scoped(program.pipe(Effect.provide(AppLayer(join(dir, "bench.db"), DEFAULT_CONFIG)))))
  const embedder = process.env.MEMLEDGER_EMBEDDER ?? "none"
  const mode = embedder === "none" ? "keyword mode" : `hybrid, MEMLEDGER_EMBEDDER=${embedder}`
  console.log(`cue learning over ${cases} second-batch paraphrases (${mode}, limit 10)\n`)
  console.log("| stage | MRR | hit@1 | hit@3 |")
  console.log("| --- | ---: | ---: | ---: |")
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
  for (const stage of STAGES) {
    const r = ranks.get(stage)!
    console.log(`| ${stage} | ${mean(r.map((x) => x.rr)).toFixed(3)} | ${mean(r.map((x) => Number(x.hit1))).toFixed(3)} | ${mean(r.map((x) => Number(x.hit3))).toFixed(3)} |`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
