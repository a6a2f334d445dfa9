/**
 * A capture's evidence passes the same privacy scan as the content it stands beside: what a
 * memory shows as its source (`mem show`, `mem why`) never holds a secret the content would not.
 * Its `from` is a file name and line, checked as names are (an origin, a project): ids in file
 * names (a session's uuid) are no secret, but a name holding a key is left out.
 */
import { canonicalCapture, MAX_EVIDENCE, type Capture } from "../events/capture.js"
import { secretInName } from "../privacy/secret-in-name.js"
import { scrubText } from "../privacy/scrub.js"

export const scannedCapture = (capture: Capture): Capture => {
  const evidence = cut(scrubText(capture.evidence))
  const { from, ...rest } = capture
  return canonicalCapture(from === undefined || secretInName(from) !== undefined ? { ...rest, evidence } : { ...capture, evidence })
}

/** A redaction marker may be longer than the secret it replaced: the scanned text still fits the field. */
const cut = (text: string): string => (text.length <= MAX_EVIDENCE ? text : `${text.slice(0, MAX_EVIDENCE - 1)}…`)
