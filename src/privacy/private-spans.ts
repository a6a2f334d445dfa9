/**
 * `<private>…</private>` marks text a person wants kept out of the store. The span is dropped
 * before anything else looks at the text, tags included: case-insensitive, across lines,
 * nested spans counted once, and an unclosed tag drops everything after it (a forgotten
 * closing tag must not leak what it was meant to hide).
 */

const TAG = /<(\/?)private\s*>/gi

export const dropPrivateSpans = (text: string): { text: string; dropped: number } => {
  let dropped = 0
  let current = text
  // Dropping a span can join the halves of a tag split around it (`<priv<private>x</private>ate>`),
  // so repeat until no tag is left: the result never holds a tag a second pass would act on.
  for (;;) {
    const pass = dropOnce(current)
    if (pass.changed === false) return { text: current, dropped }
    dropped += pass.dropped
    current = pass.text
  }
}

/**
 * How many `<private>` spans are still open at the end of `text`, counted as dropOnce counts
 * them: for text that goes on elsewhere (a transcript read a part at a time), so the next part
 * can be scanned as the continuation it is, and a span opened earlier still hides what follows.
 */
export const openPrivateSpans = (text: string): number => {
  let depth = 0
  for (const tag of text.matchAll(TAG)) depth = tag[1] === "/" ? Math.max(0, depth - 1) : depth + 1
  return depth
}

const dropOnce = (text: string): { text: string; dropped: number; changed: boolean } => {
  const kept: string[] = []
  let depth = 0
  let keptFrom = 0
  let dropped = 0
  let changed = false
  for (const tag of text.matchAll(TAG)) {
    const closing = tag[1] === "/"
    const at = tag.index
    if (!closing) {
      if (depth === 0) kept.push(text.slice(keptFrom, at))
      depth++
    } else if (depth > 0) {
      depth--
      if (depth === 0) {
        dropped++
        keptFrom = at + tag[0].length
      }
    } else {
      // A closing tag with nothing open is markup, not content: drop the tag alone.
      kept.push(text.slice(keptFrom, at))
      keptFrom = at + tag[0].length
    }
    changed = true
  }
  if (!changed) return { text, dropped: 0, changed: false }
  if (depth > 0) dropped++
  else kept.push(text.slice(keptFrom))
  return { text: joinAroundGaps(kept), dropped, changed }
}

/** "a <private>x</private> b" reads "a b", not "a  b"; the ends are trimmed of what the gap left. */
const joinAroundGaps = (pieces: ReadonlyArray<string>): string =>
  pieces
    .reduce((joined, piece) => (/\s$/.test(joined) && /^\s/.test(piece) ? joined + piece.replace(/^[ \t]+/, "") : joined + piece), "")
    .trim()
