/**
 * The `local` embedder (Universal Sentence Encoder lite, in-process) as memledger runs it:
 * time to load the model and embed a first sentence, ms per sentence in batches of 1 and 32,
 * and whether each paraphrase is closer to its sentence than every other sentence is.
 *
 *   node bench/run.mjs embed-local
 */
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import { makeLocalEmbedder } from "../src/embeddings/local.js"
import { cosine } from "../src/embeddings/normalize.js"

const PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["how do I run the tests", "command to execute the test suite"],
  ["the build fails when node_modules is stale", "delete node_modules and reinstall if compilation breaks"],
  ["use pnpm instead of npm in this repo", "this project's package manager is pnpm, not npm"],
  ["database migrations live in db/migrate", "the schema change scripts are stored in the db/migrate folder"],
  ["never commit secrets to git", "do not check API keys into the repository"]
]
const UNRELATED = [
  "the logo should be dark blue on the landing page",
  "format dates as ISO-8601 in every API response",
  "the CI runner has 4 GiB of memory",
  "prefer early returns over nested conditionals",
  "the staging server restarts every night at 02:00 UTC"
]
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const embedder = makeLocalEmbedder()
const embed = (texts: ReadonlyArray<string>) => Effect.runPromise(embedder.embed(texts))

let t = performance.now()
await embed(["first sentence"])
console.log(`load + first vector: ${((performance.now() - t) / 1000).toFixed(2)} s`)

const single: number[] = []
for (let i = 0; i < 20; i++) {
  t = performance.now()
  await embed([`run the tests before pushing, attempt ${i}`])
  single.push(performance.now() - t)
}
const batch: number[] = []
for (let i = 0; i < 5; i++) {
  const texts = Array.from({ length: 32 }, (_, j) => `memory ${i}-${j}: deploy with make deploy after the tests pass`)
  t = performance.now()
  await embed(texts)
  batch.push((performance.now() - t) / 32)
}
console.log(`ms per sentence: batch of 1 ${median(single).toFixed(1)} (median of 20), batch of 32 ${median(batch).toFixed(1)} (median of 5)`)

const sentences = [...PAIRS.flat(), ...UNRELATED]
const vectors = new Map(sentences.map((s, i) => [s, i]))
const all = await embed(sentences)
console.log("\n| sentence | paraphrase | paraphrase cosine | best other |\n| --- | --- | --- | --- |")
let first = 0
for (const [a, b] of PAIRS) {
  const va = all[vectors.get(a)!]!
  const pair = cosine(va, all[vectors.get(b)!]!)
  const other = Math.max(...sentences.filter((s) => s !== a && s !== b).map((s) => cosine(va, all[vectors.get(s)!]!)))
  if (pair > other) first++
  console.log(`| ${a} | ${b} | ${pair.toFixed(3)} | ${other.toFixed(3)} |`)
}
console.log(`\n${first} of ${PAIRS.length} paraphrases rank first; rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB`)
