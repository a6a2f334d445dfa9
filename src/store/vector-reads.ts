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
import { cueWeightAt, type LearnedCueRow } from "../projections/cue-state.js"
import { candidateLimit, type Candidate, type QueryVector, type Scope, type VectorCue } from "../retrieval/candidate.js"
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
  /** As `nearest`, among the vectors of learned cues filed in the places (keys are cues' keys). */
  readonly nearestCues: (model: string, query: Float32Array, k: number, places: ReadonlyArray<string>) => Neighbour[]
}

/** A memory with its evidence, as a search's candidates carry it. */
export interface MemoryInScope {
  readonly memory: MemoryState
  readonly evidence: EvidenceState | undefined
}

/** What a store reads for a search's vector candidates: its two tables of vectors, and scope checks on its rows. */
export interface VectorCandidateReads {
  readonly search: VectorSearch
  /** Those of `keys` (memories' keys) that are live, in the scope's places, the reader's to see and of its category. */
  readonly inScope: (keys: ReadonlyArray<number>, scope: Scope) => ReadonlyArray<MemoryInScope>
  /** The learned cues of `keys` (cues' keys) that are still there, each with its memory's key, in key order. */
  readonly learnedCues: (keys: ReadonlyArray<number>) => ReadonlyArray<{ readonly cue: LearnedCueRow; readonly memoryKey: number }>
}

/** The places searched from `project`: global and, with a project, that project's. */
export const placesSearchedFrom = (project: string | null): string[] => (project === null ? [placeOf(null)] : [placeOf(null), placeOf(project)])

/** A distance of null or NaN (a zero vector on either side) is no similarity at all. */
export const toCosine = (distance: number | null): number => (distance === null || Number.isNaN(distance) ? 0 : 1 - distance)

/**
 * Adds vector relevance: the cosine of every keyword candidate, the nearest memories by vector
 * that are in scope, live and of the asked category (keyword 0 when no word matched), and the
 * memories of the nearest learned cues. A cue filed in a place is searched only from there, as
 * its words are, so it never reaches another project. A memory's vector signal is the best of
 * its own cosine and its cues' (each times `learnedCueWeight` and its decayed weight); a cue
 * that gives it is kept for `why`.
 */
export const addVectorCandidates = (
  reads: VectorCandidateReads,
  found: Map<number, Candidate<RankFields>>,
  query: QueryVector,
  scope: Scope,
  limit: number,
  config: LedgerConfig,
  nowMs: number
): Map<number, Candidate<RankFields>> => {
  const { search } = reads
  const withVectors = new Map<number, Candidate<RankFields>>()
  const cosines = search.similarities(query.model, query.vector, [...found.keys()])
  for (const [key, c] of found) withVectors.set(key, { ...c, vector: cosines.get(key) ?? 0 })
  const count = candidateLimit(limit, config)
  const places = placesSearchedFrom(scope.project)
  const neighbours = search.nearest(query.model, query.vector, count, places).filter((n) => !found.has(n.key))
  const cosineOf = new Map(neighbours.map((n) => [n.key, n.cosine]))
  if (neighbours.length > 0) {
    for (const { memory, evidence } of reads.inScope([...cosineOf.keys()], scope)) {
      withVectors.set(memory.key, { memory, evidence, keyword: 0, vector: cosineOf.get(memory.key) ?? 0 })
    }
  }
  const cueNeighbours = search.nearestCues(query.model, query.vector, count, places)
  if (cueNeighbours.length === 0) return withVectors
  const cueCosine = new Map(cueNeighbours.map((n) => [n.key, n.cosine]))
  // A cue's key may have been given to another cue since its vector was filed (a memory's cues
  // are written anew at each outcome, until the next sync): only a cue of a place searched counts.
  const cues = reads.learnedCues([...cueCosine.keys()]).filter(({ cue }) => places.includes(placeOf(cue.project)))
  const memories = new Map(reads.inScope([...new Set(cues.map((c) => c.memoryKey))], scope).map((m) => [m.memory.key, m]))
  for (const { cue, memoryKey } of cues) {
    const inScope = memories.get(memoryKey)
    if (inScope === undefined) continue
    const weight = Math.min(1, cueWeightAt(cue, nowMs, config.halfLifeDays))
    const cosine = cueCosine.get(cue.key) ?? 0
    const signal = cosine * config.learnedCueWeight * weight
    const known = withVectors.get(memoryKey)
    if (known !== undefined && known.vector >= signal) continue
    const vectorCue: VectorCue = { text: cue.text, origin: cue.origin, outcomeEventId: cue.outcomeEventId, recallEventId: cue.recallEventId, cosine, weight }
    withVectors.set(memoryKey, { ...(known ?? { ...inScope, keyword: 0 }), vector: signal, vectorCue })
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
