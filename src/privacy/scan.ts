/**
 * The privacy scan every write passes through before anything is stored (docs/privacy.md): private
 * spans dropped, secrets redacted, instruction-like text flagged. Pure and idempotent: scanning
 * what a scan returned changes nothing and reports no redaction.
 */
import { instructionLikeReasons } from "./instruction-like.js"
import { dropPrivateSpans } from "./private-spans.js"
import { redactSecrets } from "./redact-secrets.js"
import type { SecretKind } from "./vocabulary.js"

export interface ScanResult {
  /** The text to store. */
  readonly content: string
  readonly redactions: ReadonlyArray<{ readonly kind: SecretKind }>
  /** How many `<private>` spans were dropped. */
  readonly droppedPrivate: number
  /** Why the text reads like instructions to an agent; empty when it does not. */
  readonly instructionLike: ReadonlyArray<string>
}

export const scanContent = (text: string): ScanResult => {
  // Private spans go first, so nothing inside one is ever looked at, counted or reported.
  const open = dropPrivateSpans(text)
  const redacted = redactSecrets(open.text)
  return {
    content: redacted.text,
    redactions: redacted.kinds.map((kind) => ({ kind })),
    droppedPrivate: open.dropped,
    instructionLike: instructionLikeReasons(redacted.text)
  }
}
