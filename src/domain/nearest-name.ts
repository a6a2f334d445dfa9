/**
 * The name a mistyped one most likely meant ("catgory" -> "category", "tag" -> "tags"), for a
 * "did you mean" hint: the closest by edit distance, ignoring case, underscores and hyphens,
 * when it is close enough to be a slip rather than another word.
 */
export const nearestName = (typed: string, names: ReadonlyArray<string>): string | undefined => {
  const word = folded(typed)
  // A slip is a character or two; in a short name, one.
  const allowed = word.length <= 4 ? 1 : 2
  let best: { name: string; distance: number } | undefined
  for (const name of names) {
    const distance = editDistance(word, folded(name))
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name, distance }
  }
  return best?.name
}

const folded = (name: string): string => name.toLowerCase().replace(/[_-]/g, "")

/** Levenshtein distance: the fewest insertions, deletions and substitutions from a to b. */
const editDistance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution))
    }
    previous = current
  }
  return previous[b.length]!
}
