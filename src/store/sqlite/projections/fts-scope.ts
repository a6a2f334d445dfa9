/**
 * Scope and liveness as FTS5 tokens. Each memory's row in `memories_fts` carries, in a `scope`
 * column of weight 0, one token for where it lives (global or its project, live or not) and one
 * for its category. A query then says "these words, in this scope" in one MATCH, and FTS5
 * intersects the doclists itself: joining every word match to the memories table to check its
 * scope cost more than scoring the matches (bench/search: a median query matches 7,561 of
 * 100,000 memories, a quarter of them in scope).
 *
 * The tokens are never produced by a query's words, because those are searched only in the text
 * columns (`textMatch`). Each ends in a digit, so the porter stemmer leaves it whole.
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

const categoryToken = (category: string): string => `zc${hashOf(category)}0`

/** The `scope` column's text for one memory. */
export const scopeColumn = (key: ScopeKey, category: string): string => `${placeToken(key)} ${categoryToken(category)}`

const anyOf = (tokens: ReadonlyArray<string>): string => (tokens.length === 1 ? `"${tokens[0]}"` : `(${tokens.map((t) => `"${t}"`).join(" OR ")})`)

/** The place tokens searched from `project`: global memories and, with a project, that project's. */
export const placeTokensOf = (project: string | null, live: boolean): string[] =>
  project === null ? [placeToken({ project, live })] : [placeToken({ project: null, live }), placeToken({ project, live })]

/** A MATCH restricted to the text columns, so a word never meets a scope token. */
export const textMatch = (orOfPhrases: string): string => `{content cues tags category code} : (${orOfPhrases})`

/** Phrases AND'ed with "in one of these places" (and "of this category" when given). */
export const inPlaces = (words: string, places: ReadonlyArray<string>, category?: string): string =>
  `${textMatch(words)} AND scope : ${anyOf(places)}${category === undefined ? "" : ` AND scope : "${categoryToken(category)}"`}`

/** Phrases in none of these places. */
export const outsidePlaces = (words: string, places: ReadonlyArray<string>): string => `${textMatch(words)} NOT scope : ${anyOf(places)}`

/** Phrases in these places but not of this category. */
export const inPlacesOtherCategory = (words: string, places: ReadonlyArray<string>, category: string): string =>
  `${textMatch(words)} AND scope : ${anyOf(places)} NOT scope : "${categoryToken(category)}"`
