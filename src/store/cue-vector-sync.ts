/**
 * Vectors of the learned cues that apply somewhere else than their memory: a global memory's
 * cues learned in a project apply in that project only, so they cannot join the memory's one
 * pooled vector as its other cues do (vector-texts.ts). Each has a vector of its own, filed
 * under the cue's key in the cue's place, and a search reads those of the places it searches
 * (vector-reads.ts). They are kept by the same sync as the memories' (vector-sync.ts).
 *
 * A cue's vector is its text's, through the same embedding cache: a cue asked in the words of
 * an earlier one, or of a written cue, costs no embedding. A memory's cues are written anew at
 * each outcome that touches them, with new keys, so a sync mostly refiles cached vectors under
 * the new keys; every such write counts as a change of the indexed text, so the next search
 * with an embedder syncs first.
 */
import { contentHash } from "./vector-texts.js"
import { placeOf, type CueText, type FiledVector, type VectorItem, type VectorTables } from "./vector-store.js"
import type { PooledVector, PoolWork } from "./vector-texts.js"

/** Whether a cue has a vector of its own: it applies elsewhere than its memory, so is not in its memory's. */
const filedApart = (cue: CueText): boolean => placeOf(cue.project) !== placeOf(cue.memoryProject)

/** What a sync does for the cues: vectors current, cues to embed or refile, vectors whose cue is gone. */
export interface CuePlan {
  readonly cues: number
  readonly unchanged: number
  readonly work: ReadonlyArray<PoolWork>
  readonly gone: ReadonlyArray<number>
}

/**
 * Compares the learned cues with the model's filed cue vectors: all of them, or those of the
 * memories among `memoryIds` (whose cues were rewritten), with every filed vector whose cue is
 * gone. Reads only.
 */
export const readCuePlan = (tables: VectorTables, model: string, memoryIds?: ReadonlyArray<string>): CuePlan => {
  const state = new Map<number, FiledVector>()
  if (tables.modelLength(model) !== undefined) for (const filed of tables.filedCues(model)) state.set(filed.key, filed)
  const cues = (memoryIds === undefined ? tables.learnedCues() : tables.learnedCuesOfMemories(memoryIds)).filter(filedApart)
  if (memoryIds !== undefined) {
    // Only some memories' cues were read: whether the others' vectors still have their cues, and
    // are still filed apart, is asked of those vectors' keys.
    const still = tables.learnedCuesOf([...state.keys()])
    return planCues(cues, state, (key) => still.has(key) && filedApart(still.get(key)!))
  }
  return planCues(cues, state, () => false)
}

const planCues = (cues: ReadonlyArray<CueText>, state: ReadonlyMap<number, FiledVector>, keptElsewhere: (key: number) => boolean): CuePlan => {
  const present = new Set<number>()
  const work: PoolWork[] = []
  let unchanged = 0
  for (const cue of cues) {
    present.add(cue.key)
    const hash = contentHash(cue.text)
    const place = placeOf(cue.project)
    const stored = state.get(cue.key)
    if (stored?.hash === hash && stored.place === place) unchanged++
    else work.push({ key: cue.key, hash, place, texts: [cue.text] })
  }
  return { cues: cues.length, unchanged, work, gone: [...state.keys()].filter((key) => !present.has(key) && !keptElsewhere(key)) }
}

/** Files each vector whose cue still holds the text and place it was made for; counts what it filed from the cache and what it skipped. */
export const fileCueVectors = (
  tables: VectorTables,
  model: string,
  items: ReadonlyArray<PooledVector>,
  length: number | undefined
): { fromCache: number; skipped: number } => {
  const current = tables.learnedCuesOf(items.map((i) => i.key))
  let fromCache = 0
  let skipped = 0
  for (const item of items) {
    const cue = current.get(item.key)
    if (cue === undefined || !filedApart(cue) || contentHash(cue.text) !== item.hash || placeOf(cue.project) !== item.place || item.vector.length !== length) {
      skipped++
      continue
    }
    tables.fileCueVector(model, item satisfies VectorItem)
    if (!item.embedded) fromCache++
  }
  return { fromCache, skipped }
}

/** After a purge: deletes the vectors of cues gone or changed, and returns the hashes of the texts those filed apart still hold. */
export const pruneCueVectors = (tables: VectorTables): Set<string> => {
  const held = new Map(tables.learnedCues().filter(filedApart).map((c) => [c.key, { hash: contentHash(c.text), place: placeOf(c.project) }]))
  for (const model of tables.models()) {
    for (const filed of tables.filedCues(model)) {
      const cue = held.get(filed.key)
      if (cue?.hash !== filed.hash || cue.place !== filed.place) tables.removeCueVector(model, filed.key)
    }
  }
  return new Set([...held.values()].map((c) => c.hash))
}
