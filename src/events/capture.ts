/**
 * Where a captured memory came from (docs/capture.md): what kind of span gave it, a hash of
 * that span, and the span itself as evidence, scanned for privacy like the content. The key
 * of a capture is the event's origin (the conversation) together with `span`: a key already in
 * the log adds nothing, so a hook that fires twice or an import run again writes nothing new.
 *
 * An optional payload field of MemoryAdded and MemoryConfirmed: events written before it existed
 * decode as they are, and their stored text (which the hash chain covers) never changes.
 */
import { Schema } from "effect"

export const CAPTURE_KINDS = ["prompt-rule", "command-pair", "repeated-test", "transcript-part"] as const
export const CaptureKind = Schema.Literal(...CAPTURE_KINDS)
export type CaptureKind = typeof CaptureKind.Type

/** The most evidence a capture keeps: a prompt's sentence and its neighbours, or two commands and an error. */
export const MAX_EVIDENCE = 1_200

export const Capture = Schema.Struct({
  /** sha256 (hex) of the span, as `spanHash` computes it. */
  span: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  kind: CaptureKind,
  /** The prompt excerpt, the command pair or the transcript part, redacted as stored. */
  evidence: Schema.String.pipe(Schema.maxLength(MAX_EVIDENCE)),
  /** The transcript file and line it was read from, when it came from an import. */
  from: Schema.optional(Schema.String.pipe(Schema.maxLength(1_000))),
  /**
   * A `transcript-part` only: the sha256 of the transcript text a language model was sent. Every
   * memory drawn from one part carries it, each under a span of its own, so one part gives
   * several memories and is never sent again.
   */
  part: Schema.optional(Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)))
})
export type Capture = typeof Capture.Type

/** The same capture with its fields in schema order: the stored text, and so its hash, never depends on how it was built. */
export const canonicalCapture = (c: Capture): Capture => ({
  span: c.span,
  kind: c.kind,
  evidence: c.evidence,
  ...(c.from === undefined ? {} : { from: c.from }),
  ...(c.part === undefined ? {} : { part: c.part })
})
