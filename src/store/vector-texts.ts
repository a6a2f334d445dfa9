/**
 * What a memory's vector is made from: its content, its written cues, and the learned cues that
 * apply wherever the memory is found, each embedded on its own and pooled into one vector, the
 * normalised mean. A cue is worded as someone would ask when they need the memory, so it pulls
 * the vector towards those questions; pooling keeps one vector a memory, so a nearest-neighbour
 * search reads no more rows than without cues (`bench/retrieval-cue-vectors` measured it
 * against a vector a text: USE-lite alone found the second batch's paraphrases at MRR 0.350
 * pooled, 0.307 apart, 0.191 from the content alone).
 *
 * A learned cue applies where it was taught: a project memory's cues are its project's, and so
 * are pooled, as are a global memory's cues learned outside any project. A global memory's cue
 * learned in a project applies there only, which one vector cannot hold: it has a vector of its
 * own, in that project (cue-vector-sync.ts).
 *
 * For a sync's batch (vector-sync.ts): which texts to embed, and each memory's pooled vector.
 */
import { createHash } from "node:crypto"

/**
 * A memory's texts as a store holds them: its content, its written cues as their JSON list, its
 * project, and its learned cues as a JSON list of [text, project] pairs (absent: none).
 */
export interface MemoryTexts {
  readonly content: string
  readonly cues: string
  readonly project: string | null
  readonly learned?: string | null
}

/**
 * The texts a memory's vector pools: its content, its written cues, then its learned cues of
 * its own place, in text order (a memory's cues are written anew at each outcome: the same
 * cues give the same vector, whatever their order).
 */
export const vectorTexts = (m: MemoryTexts): string[] => {
  const written = m.cues === "[]" ? [] : (JSON.parse(m.cues) as string[])
  return [m.content, ...written, ...pooledLearnedCues(m)]
}

const pooledLearnedCues = (m: MemoryTexts): string[] => {
  if (m.learned === undefined || m.learned === null || m.learned === "[]") return []
  const cues = JSON.parse(m.learned) as Array<[string, string | null]>
  return cues.flatMap(([text, project]) => (project === m.project ? [text] : [])).sort()
}

/** The hash a vector is cached and tracked under: sha256 of exactly the text embedded. */
export const contentHash = (text: string): string => createHash("sha256").update(text).digest("hex")

/**
 * The hash a memory's vector is cached and filed under: its content's alone when it has no cue
 * (so a vector filed before cues were pooled stays current), else a hash of all its texts, kept
 * apart from any single text's by a prefix no text is hashed with.
 */
export const pooledHash = (texts: ReadonlyArray<string>): string =>
  texts.length === 1 ? contentHash(texts[0]!) : contentHash(`memledger pooled vector\u0000${JSON.stringify(texts)}`)

/** The normalised mean of unit vectors of one length; one vector is returned as it is, bit for bit. */
export const pooled = (vectors: ReadonlyArray<Float32Array>): Float32Array => {
  if (vectors.length === 1) return vectors[0]!
  const sum = new Float64Array(vectors[0]!.length)
  for (const v of vectors) for (let i = 0; i < sum.length; i++) sum[i] = sum[i]! + v[i]!
  let norm = 0
  for (const x of sum) norm += x * x
  norm = Math.sqrt(norm)
  return Float32Array.from(sum, (x) => (norm === 0 ? 0 : x / norm))
}

/** A memory whose vector a sync makes: its key, where it is filed, and the texts it pools under `hash` (`pooledHash`). */
export interface PoolWork {
  readonly key: number
  readonly hash: string
  readonly place: string
  readonly texts: ReadonlyArray<string>
}

/** A memory's vector, made; `embedded` when one of its texts was embedded for it (not all from the cache). */
export interface PooledVector {
  readonly key: number
  readonly hash: string
  readonly place: string
  readonly vector: Float32Array
  readonly embedded: boolean
}

/** Each text the batch must embed, once: those of every memory whose pooled vector is not cached and whose own is not either. */
export const textsToEmbed = (batch: ReadonlyArray<PoolWork>, hits: ReadonlyMap<string, Float32Array>): Array<{ text: string; hash: string }> => {
  const out = new Map<string, string>()
  for (const w of batch) {
    if (hits.has(w.hash)) continue
    for (const text of w.texts) {
      const hash = contentHash(text)
      if (!hits.has(hash)) out.set(hash, text)
    }
  }
  return [...out].map(([hash, text]) => ({ text, hash }))
}

/**
 * Each memory's vector: its pool from the cache, or pooled now from its texts' vectors, which
 * are new to the cache (`fresh`) as the texts just embedded are. A memory whose texts' vectors
 * differ in length (the model changed under the same id mid-way) is left for the next sync.
 */
export const pooledVectors = (batch: ReadonlyArray<PoolWork>, hits: ReadonlyMap<string, Float32Array>, embeddedNow: ReadonlySet<string>) => {
  const fresh = new Map<string, Float32Array>()
  for (const hash of embeddedNow) fresh.set(hash, hits.get(hash)!)
  const items: PooledVector[] = []
  let unpooled = 0
  for (const w of batch) {
    // A memory of one text has its text's hash: embedded now, it was no cache hit.
    const cachedPool = embeddedNow.has(w.hash) ? undefined : hits.get(w.hash)
    if (cachedPool !== undefined) {
      items.push({ key: w.key, hash: w.hash, place: w.place, vector: cachedPool, embedded: false })
      continue
    }
    const hashes = w.texts.map(contentHash)
    const vectors = hashes.map((h) => hits.get(h)!)
    if (vectors.some((v) => v.length !== vectors[0]!.length)) {
      unpooled++
      continue
    }
    const vector = pooled(vectors)
    fresh.set(w.hash, vector)
    items.push({ key: w.key, hash: w.hash, place: w.place, vector, embedded: hashes.some((h) => embeddedNow.has(h)) })
  }
  return { items, fresh, unpooled }
}
