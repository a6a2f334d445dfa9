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
import { categoryToken, placeToken, placeTokensOf, scopeColumn, type ScopeKey } from "../../../retrieval/place-tokens.js"

export { placeToken, placeTokensOf, scopeColumn, type ScopeKey }

const anyOf = (tokens: ReadonlyArray<string>): string => (tokens.length === 1 ? `"${tokens[0]}"` : `(${tokens.map((t) => `"${t}"`).join(" OR ")})`)


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
