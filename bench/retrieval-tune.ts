/**
 * Compares ranking configurations on the retrieval data set (same runner as bench/retrieval),
 * on the tuning half only (odd query ids): defaults are chosen here, and the held-out half is
 * reported by bench/retrieval, never tuned on. `node bench/run.mjs retrieval-tune`. The
 * embedder comes from MEMLEDGER_EMBEDDER as usual. Other variants than the list below:
 * TUNE_VARIANTS='[["name", {"keywordShare": 0.3}], ...]'. "context empty" counts the tuning
 * half's negatives for which `context --query` injected nothing (36 without cues, 13 with).
 */
import { DEFAULT_CONFIG, type LedgerConfig } from "../src/config.js"
import { runQuality, type QualityRun } from "./retrieval.js"
import { queryHalf, summarize } from "./retrieval/metrics.js"
import { loadDataset } from "./retrieval/validate.js"

const variants: ReadonlyArray<[string, Partial<LedgerConfig>]> = process.env.TUNE_VARIANTS ? JSON.parse(process.env.TUNE_VARIANTS) : [
  ["default", {}],
  ["minCoverage 0 (nothing left out)", { minCoverage: 0 }],
  ["minCoverage 0.1", { minCoverage: 0.1 }],
  ["minCoverage 0.2", { minCoverage: 0.2 }],
  ["fields 1/1.5/0.5/0.25/0.5", { fieldWeights: [1, 1.5, 0.5, 0.25, 0.5] }],
  // With an embedder only:
  ["keywordShare 0.4", { keywordShare: 0.4 }],
  ["keywordShare 0.5", { keywordShare: 0.5 }],
  ["coverageCosine 0.5", { coverageCosine: 0.5 }],
  ["contextMinCosine 0.6", { contextMinCosine: 0.6 }]
]

const { queries } = loadDataset()
const batchOf = new Map(queries.map((q) => [q.id, q.batch]))
const tuning = (run: QualityRun, batch2Only: boolean) => {
  const outcomes = run.outcomes.filter((o) => queryHalf(o.id) === "tune" && (!batch2Only || batchOf.get(o.id) === 2))
  const rows = new Map(summarize(outcomes).map((r) => [r.label, r]))
  const empty = [...run.emptyContext].filter((id) => queryHalf(id) === "tune" && (!batch2Only || batchOf.get(id) === 2)).length
  return { mrr: (k: string) => rows.get(k as never)?.mrr?.toFixed(3) ?? "-", negativesEmpty: rows.get("negative" as never)?.negativesEmpty?.toFixed(2) ?? "-", empty }
}

console.log("tuning half: without cues (all queries) | with written cues (second batch)")
console.log("| variant | lexical | task | paraphrase | code | overall | negatives empty | context empty | cues: task | cues: paraphrase | cues: overall | cues: negatives empty | cues: context empty |")
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for (const [name, change] of variants) {
  const config = { ...DEFAULT_CONFIG, ...change }
  const plain = tuning(await runQuality(config), false)
  const cued = tuning(await runQuality(config, { cues: true }), true)
  const k = ["lexical", "task", "paraphrase", "code", "overall"].map((x) => plain.mrr(x)).join(" | ")
  console.log(`| ${name} | ${k} | ${plain.negativesEmpty} | ${plain.empty} | ${cued.mrr("task")} | ${cued.mrr("paraphrase")} | ${cued.mrr("overall")} | ${cued.negativesEmpty} | ${cued.empty} |`)
}
