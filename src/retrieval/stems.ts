/**
 * A text as the index sees it: unicode61's tokens (lower case, diacritics removed, split on
 * anything but letters and digits) and its code words, Porter-stemmed, stop words left out.
 * How much of a query a memory or a cue answers is measured on these, in JavaScript, so the
 * measure is the same for every store and needs no round trip per word.
 */
import { codeWords } from "./code-words.js"
import { STOP_WORDS } from "./fts-query.js"
import { porterStem } from "./porter.js"

const TOKEN = /[\p{L}\p{N}]+/gu

const plainOf = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()

export const stemsOf = (text: string): Set<string> => {
  const plain = plainOf(text)
  const stems = new Set<string>()
  for (const [token] of plain.matchAll(TOKEN)) if (!STOP_WORDS.has(token)) stems.add(porterStem(token))
  for (const word of codeWords(text)) if (!STOP_WORDS.has(word)) stems.add(porterStem(word))
  return stems
}

/**
 * Every token of a text as a keyword index holds it, in order, stop words included: what a store
 * without SQLite's tokenizer (porter over unicode61, diacritics removed) indexes instead.
 */
export const indexTokens = (text: string): string[] => [...plainOf(text).matchAll(TOKEN)].map(([token]) => porterStem(token))
