/**
 * What the stores' vector reads do with the neighbours their tables give, the same in every
 * store: a search's candidates by vector beside its keyword ones, and a new text's nearest
 * memories. A store answers two questions in its own SQL (`VectorSearch`: the nearest vectors
 * among places, and the cosine of given memories) and filters memories by scope; the rest is here.
 *
 * The nearest vectors are taken among every stored vector of the places searched, live or not,
 * and only then joined to the memories for liveness, category and reader: so both stores cut at
 * the same `k` and leave out the same memories.
 */
import type { LedgerConfig } from "../config.js"
import type { Viewer } from "../domain/viewer.js"
import type { EvidenceState } from "../projections/evidence-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import { candidateLimit, type Candidate, type QueryVector, type Scope } from "../retrieval/candidate.js"
import type { RankFields } from "../retrieval/rank.js"
import { placeOf } from "./vector-sync.js"

export interface Neighbour {
  readonly key: number
  /** Cosine similarity, 1 - cosine distance: 1 is the same direction. */
  readonly cosine: number
}

export interface VectorSearch {
  /**
   * The `k` stored vectors nearest to `query` among the given places (any memory, live or not),
   * best first, equal distances in key order. Empty when the model has none stored, or when
   * `query` has another length than its vectors (the model changed; the next sync refiles them).
   */
  readonly nearest: (model: string, query: Float32Array, k: number, places: ReadonlyArray<string>) => Neighbour[]
  /** Cosine similarity of `query` to each of `keys` that has a vector. */
  readonly similarities: (model: string, query: Float32Array, keys: ReadonlyArray<number>) => Map<number, number>
}

/** The places searched from `project`: global and, with a project, that project's. */
export const placesSearchedFrom = (project: string | null): string[] => (project === null ? [placeOf(null)] : [placeOf(null), placeOf(project)])

/** A distance of null or NaN (a zero vector on either side) is no similarity at all. */
export const toCosine = (distance: number | null): number => (distance === null || Number.isNaN(distance) ? 0 : 1 - distance)

/**
 * Adds vector relevance: the cosine of every keyword candidate, and the nearest memories by
 * vector that are in scope, live and of the asked category (keyword 0 when no word matched).
 * `inScope` gives those of `keys` (the live ones of the scope, the reader and the category),
 * with their evidence.
 */
export const addVectorCandidates = (
  search: VectorSearch,
  inScope: (keys: ReadonlyArray<number>, scope: Scope) => ReadonlyArray<{ memory: MemoryState; evidence: EvidenceState | undefined }>,
  found: Map<number, Candidate<RankFields>>,
  query: QueryVector,
  scope: Scope,
  limit: number,
  config: LedgerConfig
): Map<number, Candidate<RankFields>> => {
  const withVectors = new Map<number, Candidate<RankFields>>()
  const cosines = search.similarities(query.model, query.vector, [...found.keys()])
  for (const [key, c] of found) withVectors.set(key, { ...c, vector: cosines.get(key) ?? 0 })
  const neighbours = search
    .nearest(query.model, query.vector, candidateLimit(limit, config), placesSearchedFrom(scope.project))
    .filter((n) => !found.has(n.key))
  if (neighbours.length === 0) return withVectors
  const cosineOf = new Map(neighbours.map((n) => [n.key, n.cosine]))
  for (const { memory, evidence } of inScope([...cosineOf.keys()], scope)) {
    withVectors.set(memory.key, { memory, evidence, keyword: 0, vector: cosineOf.get(memory.key) ?? 0 })
  }
  return withVectors
}

/**
 * The `count` nearest live memories of the project and global ones that `viewer` sees, with
 * their cosines; `liveByKeys` gives those of `keys`.
 */
export const vectorNeighbours = (
  search: VectorSearch,
  liveByKeys: (keys: ReadonlyArray<number>, project: string | null, viewer: Viewer) => ReadonlyArray<MemoryState>,
  vector: QueryVector,
  project: string | null,
  count: number,
  viewer: Viewer = null
): Array<{ memory: MemoryState; cosine: number }> => {
  const cosine = new Map(search.nearest(vector.model, vector.vector, count, placesSearchedFrom(project)).map((n) => [n.key, n.cosine]))
  if (cosine.size === 0) return []
  return liveByKeys([...cosine.keys()], project, viewer).map((memory) => ({ memory, cosine: cosine.get(memory.key) ?? 0 }))
}
