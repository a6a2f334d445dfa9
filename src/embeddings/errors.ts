/**
 * Embedding errors are data. `EmbedderUnavailable` is never fatal: every caller falls back to
 * keyword search and says so once (fallback.ts). `EmbedderConfigInvalid` is a mistake in the
 * environment, reported at the edge like any other bad input.
 */
import { Schema } from "effect"

export class EmbedderUnavailable extends Schema.TaggedError<EmbedderUnavailable>()("EmbedderUnavailable", {
  provider: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `the ${this.provider} embedder is unavailable: ${this.reason}`
  }
}

export class EmbedderConfigInvalid extends Schema.TaggedError<EmbedderConfigInvalid>()("EmbedderConfigInvalid", {
  variable: Schema.String,
  value: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.variable}=${JSON.stringify(this.value)} is not usable: ${this.reason}`
  }
}
