/**
 * The privacy scan for the short texts that ride along with a write: a recall's query, an
 * outcome's note, task references, tags and forget reasons. Secrets are redacted and
 * `<private>` spans dropped as in memory content; nothing is flagged, since none of these is
 * ever shown to an agent as a rule. What a scan leaves empty reads "[private]".
 */
import { scanContent } from "./scan.js"

export const scrubText = (text: string): string => {
  if (text.length > MEMO_MAX_LENGTH) return scrub(text)
  const known = memo.get(text)
  if (known !== undefined) return known
  const scrubbed = scrub(text)
  // Only texts the scan had nothing to take out are kept: the memo never holds a secret.
  if (scrubbed === text.trim()) {
    if (memo.size >= MEMO_ENTRIES) memo.clear()
    memo.set(text, scrubbed)
  }
  return scrubbed
}

const scrub = (text: string): string => {
  const scrubbed = scanContent(text).content.trim()
  return scrubbed.length > 0 || text.trim().length === 0 ? scrubbed : "[private]"
}

/**
 * The same short texts come again and again (a bulk import's tags, an agent's repeated
 * queries), and the scan is pure: its answers are remembered, a few thousand at most, for the
 * texts it found clean.
 */
const memo = new Map<string, string>()
const MEMO_ENTRIES = 4_096
const MEMO_MAX_LENGTH = 256
