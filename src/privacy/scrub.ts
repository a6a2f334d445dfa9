/**
 * The privacy scan for the short texts that ride along with a write: a recall's query, an
 * outcome's note, task references, tags and forget reasons. Secrets are redacted and
 * `<private>` spans dropped as in memory content; nothing is flagged, since none of these is
 * ever shown to an agent as a rule. What a scan leaves empty reads "[private]".
 */
import { scanContent } from "./scan.js"

export const scrubText = (text: string): string => {
  const scrubbed = scanContent(text).content.trim()
  return scrubbed.length > 0 || text.trim().length === 0 ? scrubbed : "[private]"
}
