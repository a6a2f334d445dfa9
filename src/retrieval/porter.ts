/**
 * The Porter (1980) stemmer, the algorithm SQLite's `porter` tokenizer applies to the full-text
 * index, so that words measured in JavaScript (how much of a query a memory or cue answers)
 * are the index's terms. Input is one lower-case word of ASCII letters; anything else is
 * returned as it is, as SQLite does.
 */
export const porterStem = (word: string): string => {
  if (word.length <= 2 || !/^[a-z]+$/.test(word)) return word
  let w = step1a(word)
  w = step1b(w)
  w = step1c(w)
  w = replaceSuffix(w, STEP2, 0)
  w = replaceSuffix(w, STEP3, 0)
  w = step4(w)
  return step5(w)
}

const isConsonant = (w: string, i: number): boolean => {
  const c = w[i]!
  if ("aeiou".includes(c)) return false
  if (c === "y") return i === 0 || !isConsonant(w, i - 1)
  return true
}

/** m: the number of vowel-consonant sequences in the stem, [C](VC)^m[V]. */
const measure = (stem: string): number => {
  let m = 0
  let i = 0
  while (i < stem.length && isConsonant(stem, i)) i++
  while (i < stem.length) {
    while (i < stem.length && !isConsonant(stem, i)) i++
    if (i >= stem.length) break
    while (i < stem.length && isConsonant(stem, i)) i++
    m++
  }
  return m
}

const hasVowel = (stem: string): boolean => [...stem].some((_, i) => !isConsonant(stem, i))

const endsDoubleConsonant = (w: string): boolean =>
  w.length >= 2 && w[w.length - 1] === w[w.length - 2] && isConsonant(w, w.length - 1)

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
const endsCvc = (w: string): boolean => {
  const n = w.length
  if (n < 3) return false
  return isConsonant(w, n - 3) && !isConsonant(w, n - 2) && isConsonant(w, n - 1) && !"wxy".includes(w[n - 1]!)
}

const step1a = (w: string): string => {
  if (w.endsWith("sses")) return w.slice(0, -2)
  if (w.endsWith("ies")) return w.slice(0, -2)
  if (w.endsWith("ss")) return w
  if (w.endsWith("s")) return w.slice(0, -1)
  return w
}

const step1b = (w: string): string => {
  if (w.endsWith("eed")) return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w
  for (const suffix of ["ed", "ing"]) {
    if (!w.endsWith(suffix)) continue
    const stem = w.slice(0, -suffix.length)
    if (!hasVowel(stem)) return w
    if (stem.endsWith("at") || stem.endsWith("bl") || stem.endsWith("iz")) return `${stem}e`
    if (endsDoubleConsonant(stem) && !"lsz".includes(stem[stem.length - 1]!)) return stem.slice(0, -1)
    if (measure(stem) === 1 && endsCvc(stem)) return `${stem}e`
    return stem
  }
  return w
}

const step1c = (w: string): string => (w.endsWith("y") && hasVowel(w.slice(0, -1)) ? `${w.slice(0, -1)}i` : w)

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"],
  ["bli", "ble"], ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"],
  ["ization", "ize"], ["ation", "ate"], ["ator", "ate"], ["alism", "al"], ["iveness", "ive"],
  ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"], ["iviti", "ive"], ["biliti", "ble"],
  ["logi", "log"]
]

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""]
]

/** The longest matching suffix is replaced when the stem before it has measure > `minMeasure`. */
const replaceSuffix = (w: string, rules: ReadonlyArray<readonly [string, string]>, minMeasure: number): string => {
  let best: readonly [string, string] | undefined
  for (const rule of rules) if (w.endsWith(rule[0]) && (best === undefined || rule[0].length > best[0].length)) best = rule
  if (best === undefined) return w
  const stem = w.slice(0, -best[0].length)
  return measure(stem) > minMeasure ? stem + best[1] : w
}

const STEP4 = [
  "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
  "ism", "ate", "iti", "ous", "ive", "ize"
]

const step4 = (w: string): string => {
  let suffix: string | undefined
  for (const s of STEP4) if (w.endsWith(s) && (suffix === undefined || s.length > suffix.length)) suffix = s
  if (suffix === undefined) return w
  const stem = w.slice(0, -suffix.length)
  if (measure(stem) <= 1) return w
  if (suffix === "ion" && !(stem.endsWith("s") || stem.endsWith("t"))) return w
  return stem
}

const step5 = (w: string): string => {
  let out = w
  if (out.endsWith("e")) {
    const stem = out.slice(0, -1)
    const m = measure(stem)
    if (m > 1 || (m === 1 && !endsCvc(stem))) out = stem
  }
  if (measure(out) > 1 && endsDoubleConsonant(out) && out.endsWith("l")) out = out.slice(0, -1)
  return out
}
