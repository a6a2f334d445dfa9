/**
 * What a keyword index holds of a memory: its content, written cues, tags, category and code
 * words (code-words.ts), as columns weighted by `fieldWeights`; and whether a change leaves
 * that text as it was (then the index has nothing to do).
 */
import type { MemoryState } from "../projections/memory-state.js"
import { codeColumn } from "./code-words.js"

export const indexedColumns = (m: MemoryState) => {
  const cues = m.cues.join("\n")
  return [m.content, cues, m.tags.join(" "), m.category, codeColumn(m.content, cues, m.tags.join(" "))] as const
}

export const sameIndexedText = (a: MemoryState, b: MemoryState): boolean =>
  a.content === b.content && a.category === b.category && sameList(a.tags, b.tags) && sameList(a.cues, b.cues)

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): boolean => a === b || (a.length === b.length && a.every((x, i) => x === b[i]))
