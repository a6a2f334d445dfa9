/**
 * What the privacy scan may record about a write: the kinds of secret it redacted and the flags
 * it set. Both are Schemas because they are stored in `MemoryAdded` and `MemoryRevised` events;
 * a new kind is added at the end, never renamed, so old logs keep decoding.
 */
import { Schema } from "effect"

export const SECRET_KINDS = [
  "private key",
  "jwt",
  "anthropic key",
  "openai key",
  "aws access key id",
  "github token",
  "gitlab token",
  "slack token",
  "google api key",
  "stripe key",
  "npm token",
  "hugging face token",
  "url password",
  "bearer token",
  "basic auth",
  "password",
  "token",
  "secret",
  "high-entropy string"
] as const
export const SecretKind = Schema.Literal(...SECRET_KINDS)
export type SecretKind = typeof SecretKind.Type

/** `instruction-like`: the text reads like orders to an agent, so it is never injected as a rule. */
export const CONTENT_FLAGS = ["instruction-like"] as const
export const ContentFlag = Schema.Literal(...CONTENT_FLAGS)
export type ContentFlag = typeof ContentFlag.Type

/** The text that takes a secret's place: says what was there, keeps nothing of it. */
export const placeholder = (kind: SecretKind): string => `[redacted: ${kind}]`

/** True for a value that is already a placeholder, so a second scan leaves it alone. */
export const isPlaceholder = (text: string): boolean => text.startsWith("[redacted:")
