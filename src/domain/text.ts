/**
 * What makes two texts "the same thing said again": equal after folding case,
 * collapsing white space and dropping end punctuation.
 */
import { sha256Hex } from "./sha256.js"

const ASCII = /^[\x00-\x7f]*$/
/** White space that folding would change: two in a row, or any but a plain space. */
const UNEVEN_SPACE = /\s\s|[^\S ]/

export const normaliseForRestatement = (content: string): string => {
  // NFKC leaves ASCII unchanged; skipping it for ASCII text halves the cost of an import line.
  const lower = (ASCII.test(content) ? content : content.normalize("NFKC")).toLowerCase()
  // Most texts are already single-spaced: a test is cheaper than a replace that copies the text.
  const folded = (UNEVEN_SPACE.test(lower) ? lower.replace(/\s+/g, " ") : lower).trim()
  return folded.slice(0, endOfSentence(folded))
}

const SENTENCE_END = new Set([" ", ".", "!", "?", ";", ":", ",", "…"])

/**
 * Where a trimmed, space-collapsed text ends once its trailing punctuation is cut: a loop from
 * the end, where a regular expression anchored at the end tries every position of the text.
 */
const endOfSentence = (text: string): number => {
  let end = text.length
  while (end > 0 && SENTENCE_END.has(text[end - 1]!)) end--
  return end
}

/**
 * A fixed-size key for the restatement index: a hash of the normalised text. The last text and
 * its key are remembered: adding a memory asks for the key twice (the decider's restatement
 * check, then the projection's fold of the event), and a pure function may skip the repeat.
 */
export const restatementKey = (content: string): string => {
  if (content !== lastText) {
    lastKey = sha256Hex(normaliseForRestatement(content)).slice(0, 32)
    lastText = content
  }
  return lastKey
}

let lastText: string | undefined
let lastKey = ""

/**
 * How many characters a person counts in `text`: Unicode code points, so an emoji is one
 * character where `length` (UTF-16 code units) says two. Every limit stated in characters
 * (the content's 10,000) is checked with this.
 */
export const characterCount = (text: string): number => {
  let count = text.length
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--
        i++
      }
    }
  }
  return count
}

/** The longest piece of a value an error message quotes: enough to recognise it, never a wall of text. */
export const QUOTE_MAX = 80

/** `value` in double quotes for an error message, cut to QUOTE_MAX characters and "…". */
export const quoted = (value: string): string => {
  const chars = Array.from(value.length > QUOTE_MAX * 2 ? value.slice(0, QUOTE_MAX * 2) : value)
  return JSON.stringify(chars.length > QUOTE_MAX ? `${chars.slice(0, QUOTE_MAX).join("")}…` : value)
}
