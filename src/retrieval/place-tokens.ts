/**
 * Where a memory is searched from, as index tokens: one for its place (global or its project,
 * live or not) and one for its category. Each keyword index files a memory's words under
 * these, so a search says "these words, in this scope" to the index itself. The tokens are
 * never produced by a query's words (they end in a digit after letters no word starts with
 * this way, and the stemmer leaves them whole).
 */
import { createHash } from "node:crypto"

/** Where a memory is searched from: its project (null = global) and whether it takes part in recall. */
export interface ScopeKey {
  readonly project: string | null
  readonly live: boolean
}

const hashes = new Map<string, string>()

/** 64 bits of SHA-1: project names hold any characters, a token only letters and digits. */
const hashOf = (text: string): string => {
  let hash = hashes.get(text)
  if (hash === undefined) {
    hash = createHash("sha1").update(text).digest("hex").slice(0, 16)
    hashes.set(text, hash)
  }
  return hash
}

export const placeToken = ({ project, live }: ScopeKey): string => `z${live ? "l" : "d"}${project === null ? "g" : `p${hashOf(project)}`}0`

export const categoryToken = (category: string): string => `zc${hashOf(category)}0`

/** The `scope` column's text for one memory. */
export const scopeColumn = (key: ScopeKey, category: string): string => `${placeToken(key)} ${categoryToken(category)}`

/** The place tokens searched from `project`: global memories and, with a project, that project's. */
export const placeTokensOf = (project: string | null, live: boolean): string[] =>
  project === null ? [placeToken({ project, live })] : [placeToken({ project: null, live }), placeToken({ project, live })]
