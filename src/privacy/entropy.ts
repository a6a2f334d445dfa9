/**
 * Measures that tell a random token (a generated secret) from an identifier, a path or a word
 * of the same length. Shannon entropy alone cannot: at 32 characters a random base62 key
 * measures 3.7 to 5 bits per character, and `thisIsAVeryLongJavaScriptFunctionName` 4.4. So
 * entropy only rules out low-variety strings, and `wordShare` (how much of the text is made of
 * English-looking words) does the separating. The numbers are in docs/privacy.md.
 */

/** Shannon entropy of the characters of `text`, in bits per character. */
export const shannonEntropy = (text: string): number => {
  const counts = new Map<string, number>()
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  let bits = 0
  for (const n of counts.values()) {
    const p = n / text.length
    bits -= p * Math.log2(p)
  }
  return bits
}

/**
 * The share of `text`'s characters that sit in English-looking words: letter runs (`camelCase`
 * humps, `snake_case` parts, `UPPER_CASE` parts) of 3 or more letters where at least half the letter
 * pairs are among the 120 commonest in English. Long identifiers mostly score 0.7 to 1; random
 * base62 scores about 0.1, and one string in a million reaches 0.7.
 */
export const wordShare = (text: string): number => {
  if (text.length === 0) return 0
  let inWords = 0
  // Upper-case runs count as words only in text without lower case (`NGHTTP2_SETTINGS`): in
  // mixed text they are acronyms or, far more often, chance (a random key has many).
  for (const word of text.match(/[a-z]/.test(text) ? CAPITALISED_WORDS : UPPER_WORDS) ?? []) {
    if (word.length >= 3 && commonPairShare(word.toLowerCase()) >= 0.5) inWords += word.length
  }
  return inWords / text.length
}

const CAPITALISED_WORDS = /[A-Z]?[a-z]+/g
const UPPER_WORDS = /[A-Z]+/g

const commonPairShare = (word: string): number => {
  let common = 0
  for (let i = 0; i + 1 < word.length; i++) if (COMMON_PAIRS.has(word.slice(i, i + 2))) common++
  return common / (word.length - 1)
}

/** The 120 commonest letter pairs of English text, most frequent first: a sixth of the 676 possible. */
const COMMON_PAIRS = new Set(
  (
    "th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co me de hi " +
    "ri ro ic ne ea ra ce li ch ll be ma si om ur ca el ta la ns di fo ho pe ec pr no ct us ac ot il tr ly nc et " +
    "ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we na ul ni ts mo ow pa im mi ai sh ir su id os iv ia am " +
    "fi ci vi pl ig tu ev ld ry mp fe bl ab"
  ).split(" ")
)
