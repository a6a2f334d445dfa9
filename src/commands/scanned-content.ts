/**
 * Content as a decider may store it: scanned for privacy (src/privacy) and checked for size.
 * Both deciders that take text, add and revise, go through here, so every surface (CLI, MCP,
 * REST, import of memory lines) stores only scanned text. Imported *events* are history and
 * are appended as they were exported, never rescanned.
 */
import { Either } from "effect"
import { InvalidContent } from "../domain/errors.js"
import { contentTooLong } from "../domain/vocabulary.js"
import { scanContent } from "../privacy/scan.js"
import type { ContentFlag, SecretKind } from "../privacy/vocabulary.js"
import type { Mutable } from "../domain/mutable.js"

/** What the scan did, as the events record it: each field present only when something happened. */
export interface ScanRecord {
  readonly redacted?: ReadonlyArray<SecretKind>
  readonly privateDropped?: number
  readonly flags?: ReadonlyArray<ContentFlag>
}

/** What the scan did, as the writer is told it. */
export interface PrivacyNotice {
  readonly redacted: ReadonlyArray<SecretKind>
  readonly privateDropped: number
  readonly instructionLike: ReadonlyArray<string>
}

export interface ScannedContent {
  readonly content: string
  readonly record: ScanRecord
  /** Absent when the scan left the text as it was and flagged nothing. */
  readonly notice?: PrivacyNotice
}

export const scanForStorage = (raw: string): Either.Either<ScannedContent, InvalidContent> => {
  if (raw.trim().length === 0) return Either.left(new InvalidContent({ reason: "the content is empty" }))
  const scan = scanContent(raw)
  if (scan.content.trim().length === 0) {
    return Either.left(
      new InvalidContent({
        reason: "nothing is left once the <private> spans are dropped; write what may be stored outside <private>…</private>"
      })
    )
  }
  const tooLong = contentTooLong(scan.content)
  if (tooLong !== undefined) return Either.left(new InvalidContent({ reason: tooLong }))
  const redacted = scan.redactions.map((r) => r.kind)
  const instructionLike = scan.instructionLike.length > 0
  const noticed = redacted.length > 0 || scan.droppedPrivate > 0 || instructionLike
  // Most texts (every line of a clean import) need no record and no notice: one shared empty
  // record, and no temporary objects spread into the result.
  if (!noticed) return Either.right({ content: scan.content, record: NOTHING_DONE })
  const record: Mutable<ScanRecord> = {}
  if (redacted.length > 0) record.redacted = redacted
  if (scan.droppedPrivate > 0) record.privateDropped = scan.droppedPrivate
  if (instructionLike) record.flags = ["instruction-like"]
  return Either.right({
    content: scan.content,
    record,
    notice: { redacted, privateDropped: scan.droppedPrivate, instructionLike: scan.instructionLike }
  })
}

/** The record of a scan that did nothing; frozen, since every such write shares it. */
const NOTHING_DONE: ScanRecord = Object.freeze({})
