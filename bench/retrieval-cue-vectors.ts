/**
 * How a memory's written cues should join its vector, measured with USE-lite by cosine alone on
 * the retrieval data set: its content alone; one vector pooled from its content and its cues
 * (the normalised mean, content counted `w` times); or each text apart, the memory's cosine the
 * best of them. Pooling keeps one vector a memory, so a KNN reads no more rows; apart reads one
 * row a text. MRR at limit 10, second-batch queries (the ones written after the cues), by kind
 * and on each half; negatives: the best cosine a negative reaches, whose median and 80th
 * percentile say where a cut would have to be.
 *
 *   node bench/run.mjs retrieval-cue-vectors
 */
import { Effect } from "effect"
import { makeLocalEmbedder } from "../src/embeddings/local.js"
import { mrrByKindAndHalf, type QueryOutcome } from "./retrieval/metrics.js"
import { loadDataset } from "./retrieval/validate.js"

const LIMIT = 10
const { memories, queries: all } = loadDataset()
const queries = all.filter((q) => q.batch === 2)
const superseded = new Set(memories.flatMap((m) => (m.supersedes ? [m.supersedes] : [])))
const live = memories.filter((m) => !superseded.has(m.key))

const embedder = makeLocalEmbedder()
const embed = (texts: string[]) => Effect.runPromise(embedder.embed(texts))
const contentVectors = await embed(live.map((m) => m.content))
const cueTexts = live.map((m) => m.cues ?? [])
const cueVectors = await embed(cueTexts.flat())
const queryVectors = await embed(queries.map((q) => q.query))

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}
const normalised = (v: Float64Array): Float64Array => {
  const n = Math.sqrt(dot(v, v)) || 1
  return v.map((x) => x / n)
}

let offset = 0
const textsOf = live.map((_, i) => {
  const cues = cueVectors.slice(offset, offset + cueTexts[i]!.length)
  offset += cueTexts[i]!.length
  return { content: contentVectors[i]!, cues }
})

const pooled = (contentWeight: number) =>
  textsOf.map(({ content, cues }) => {
    const sum = new Float64Array(content.length)
    for (let d = 0; d < sum.length; d++) sum[d] = contentWeight * content[d]! + cues.reduce((s, c) => s + c[d]!, 0)
    return [normalised(sum)]
  })

/** Each memory's vectors; its cosine with a query is the best of them. */
const systems: ReadonlyArray<[string, ReadonlyArray<ReadonlyArray<ArrayLike<number>>>]> = [
  ["content alone", textsOf.map((t) => [t.content])],
  ["pooled, content x1", pooled(1)],
  ["pooled, content x2", pooled(2)],
  ["apart, best of content and cues", textsOf.map((t) => [t.content, ...t.cues])]
]

const KINDS = ["task", "paraphrase", "code"] as const
const percentile = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!
console.log(`retrieval-cue-vectors: ${live.length} memories, ${queries.length} second-batch queries, USE-lite cosine alone\n`)
console.log(`| vectors | ${KINDS.join(" | ")} | overall | paraphrase, tuning | paraphrase, held out | negatives' best cosine, median / p80 | answers' cosine, median |`)
console.log(`| --- | ${[...KINDS, "o", "t", "h"].map(() => "---:").join(" | ")} | ---: | ---: |`)
for (const [name, vectors] of systems) {
  const negativeBest: number[] = []
  const answerCosine: number[] = []
  const outcomes: QueryOutcome[] = queries.map((q, qi) => {
    const scored = live
      .map((m, i) => ({ key: m.key, project: m.project, cosine: Math.max(...vectors[i]!.map((v) => dot(v, queryVectors[qi]!))) }))
      .filter((m) => m.project === null || m.project === q.project)
      .sort((a, b) => b.cosine - a.cosine)
    if (q.kind === "negative") negativeBest.push(scored[0]?.cosine ?? 0)
    else answerCosine.push(scored.find((s) => q.relevant.includes(s.key))?.cosine ?? 0)
    return { id: q.id, kind: q.kind, relevant: q.relevant, returned: scored.slice(0, LIMIT).map((s) => s.key) }
  })
  const figures = mrrByKindAndHalf(outcomes, KINDS)
  const negatives = `${percentile(negativeBest, 0.5).toFixed(2)} / ${percentile(negativeBest, 0.8).toFixed(2)}`
  console.log(`| ${name} | ${figures.map((f) => f.toFixed(3)).join(" | ")} | ${negatives} | ${percentile(answerCosine, 0.5).toFixed(2)} |`)
}
