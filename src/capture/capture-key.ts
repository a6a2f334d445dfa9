/**
 * The capture of one span (events/capture.ts): the hash that, with the conversation, keys it,
 * and the evidence kept with it. A span hashes the same whether a hook saw it live or an import
 * read it from the transcript later, so importing a session the hooks already captured adds
 * nothing: a rule hashes its restatement key, a lesson its commands.
 */
import type { Either } from "effect"
import type { RememberOutput } from "../api/outputs.js"
import { sha256Hex } from "../domain/sha256.js"
import { MAX_EVIDENCE, type Capture, type CaptureKind } from "../events/capture.js"

export const captureOf = (kind: CaptureKind, span: string, evidence: string, from?: string): Capture => ({
  span: sha256Hex(`${kind}\n${span}`),
  kind,
  evidence: excerpt(evidence, MAX_EVIDENCE - 100),
  ...(from === undefined ? {} : { from })
})

/** The part of `text` around `focus`, at most `max` characters: a long prompt keeps the rule's neighbourhood. */
export const excerpt = (text: string, max: number, focus?: string): string => {
  if (text.length <= max) return text
  const at = focus === undefined ? 0 : Math.max(0, text.indexOf(focus))
  const start = Math.max(0, Math.min(at - Math.floor(max / 4), text.length - max))
  return `${start > 0 ? "…" : ""}${text.slice(start, start + max - 2)}…`
}

/** A capture's remember added a memory or confirmed one. */
export const wrote = (result: Either.Either<RememberOutput, unknown>): boolean =>
  result._tag === "Right" && (result.right.stored || "confirmed" in result.right)

/** Capture was off (or limited to rules) where this would have been kept. */
export const captureWasOff = (result: Either.Either<RememberOutput, unknown>): boolean =>
  result._tag === "Right" && !result.right.stored && "reason" in result.right && result.right.reason === "capture is off"
