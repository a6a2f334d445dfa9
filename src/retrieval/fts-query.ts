/**
 * Turns any text into a safe FTS5 query: its words, each quoted as a string and OR'ed, so
 * quotes, AND/OR/NOT/NEAR, `*`, `-`, `^` and column filters in a query are searched as words
 * and never parsed as syntax. Stop words are left out: they match nearly every memory and add
 * nothing to BM25 but time.
 */
import { codeWords } from "./code-words.js"

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be but by can do does for from had has have how i if in into is it its " +
    "me my no not of on or our so than that the their them then there these they this to too " +
    "up us was we were what when where which while who why will with would you your should " +
    "could did done get got just like make need use using want"
  ).split(" ")
)

/** Words longer than this are not words (base64, hashes) and only slow the index down. */
const MAX_WORD = 64
/** More terms than this add little relevance and much time. */
const MAX_TERMS = 32

/** The query's own words, then its code words (code-words.ts), stop words left out. */
export const queryWords = (text: string): string[] => {
  const words = [...(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []), ...codeWords(text)]
  const kept = words.filter((w) => w.length <= MAX_WORD && !STOP_WORDS.has(w))
  return [...new Set(kept)].slice(0, MAX_TERMS)
}

/** The MATCH expression, or undefined when the text holds no searchable word. */
export const ftsMatchExpression = (text: string): string | undefined => {
  const words = queryWords(text)
  return words.length === 0 ? undefined : words.map((w) => `"${w.replace(/"/g, '""')}"`).join(" OR ")
}
