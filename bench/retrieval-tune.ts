/**
 * Compares ranking configurations on the retrieval data set (same runner as bench/retrieval),
 * to decide defaults by measurement: `node bench/run.mjs retrieval-tune`. The embedder comes
 * from MEMLEDGER_EMBEDDER as usual.
 */
import { DEFAULT_CONFIG, type LedgerConfig } from "../src/config.js"
import { runQuality } from "./retrieval.js"
import { summarize } from "./retrieval/metrics.js"

const variants: ReadonlyArray<[string, Partial<LedgerConfig>]> = [
  ["default", {}],
  ["keywordShare 0.7", { keywordShare: 0.7 }],
  ["keywordShare 0.7, minVector 0.45", { keywordShare: 0.7, minVectorSimilarity: 0.45 }],
  ["keywordShare 0.55, minVector 0.45", { keywordShare: 0.55, minVectorSimilarity: 0.45 }],
  ["fields 1/1/0.2/0.1/0.5", { fieldWeights: [1, 1, 0.2, 0.1, 0.5] }]
]

console.log("| variant | lexical | task | paraphrase | overall MRR | negatives: context empty |")
console.log("| --- | ---: | ---: | ---: | ---: | ---: |")
for (const [name, change] of variants) {
  const run = await runQuality({ ...DEFAULT_CONFIG, ...change })
  const rows = new Map(summarize(run.outcomes).map((r) => [r.label, r]))
  const mrr = (k: string) => rows.get(k as never)?.mrr?.toFixed(3) ?? "-"
  console.log(`| ${name} | ${mrr("lexical")} | ${mrr("task")} | ${mrr("paraphrase")} | ${mrr("overall")} | ${run.negativesWithoutContext}/${run.negatives} |`)
}
