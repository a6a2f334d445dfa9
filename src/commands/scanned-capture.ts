/**
 * A capture's evidence passes the same privacy scan as the content it stands beside: what a
 * memory shows as its source (`mem show`, `mem why`) never holds a secret the content would not.
 */
import { canonicalCapture, MAX_EVIDENCE, type Capture } from "../events/capture.js"
import { scrubText } from "../privacy/scrub.js"

export const scannedCapture = (capture: Capture): Capture =>
  canonicalCapture({
    ...capture,
    evidence: cut(scrubText(capture.evidence)),
    ...(capture.from === undefined ? {} : { from: scrubText(capture.from) })
  })

/** A redaction marker may be longer than the secret it replaced: the scanned text still fits the field. */
const cut = (text: string): string => (text.length <= MAX_EVIDENCE ? text : `${text.slice(0, MAX_EVIDENCE - 1)}…`)
