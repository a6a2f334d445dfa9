/**
 * The ceiling of the `local` model on the retrieval data set: every query ranks the memories in
 * its scope (its project and global ones, superseded ones left out) by USE-lite cosine alone,
 * no keyword signal, no record. MRR per kind at limit 10, as bench/retrieval reports it. It says
 * how much any fusion of keyword and this model's vectors could gain on paraphrases.
 *
 *   node bench/run.mjs retrieval-vector-only
 */
import { Effect } from "effect"
import { makeLocalEmbedder } from "../src/embeddings/local.js"
import { formatTable, summarize, type QueryOutcome } from "./retrieval/metrics.js"
import { loadDataset } from "./retrieval/validate.js"

const { memories, queries } = loadDataset()
const embedder = makeLocalEmbedder()
const superseded = new Set(memories.flatMap((m) => (m.supersedes ? [m.supersedes] : [])))
const [memoryVectors, queryVectors] = await Effect.runPromise(
  Effect.all([embedder.embed(memories.map((m) => m.content)), embedder.embed(queries.map((q) => q.query))])
)
// USE-lite's vectors are unit length, so the dot product is the cosine.
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}

const outcomes: QueryOutcome[] = queries.map((q, qi) => {
  const inScope = memories.flatMap((m, mi) => ((m.project === null || m.project === q.project) && !superseded.has(m.key) ? [{ key: m.key, cosine: dot(queryVectors[qi]!, memoryVectors[mi]!) }] : []))
  inScope.sort((a, b) => b.cosine - a.cosine)
  return { id: q.id, kind: q.kind, relevant: q.relevant, returned: inScope.slice(0, 10).map((m) => m.key) }
})
console.log("USE-lite cosine alone (no keyword, no record), limit 10\n")
console.log(formatTable(summarize(outcomes)))
