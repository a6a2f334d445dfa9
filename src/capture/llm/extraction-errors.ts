/**
 * Why an extraction kept nothing, as data: the extraction runs beside a session, so each is
 * written to hooks.log and never reaches the agent. None names the key.
 */
import { Schema } from "effect"

export class ModelUnreachable extends Schema.TaggedError<ModelUnreachable>()("ModelUnreachable", {
  server: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot reach the language model at ${this.server}: ${this.reason}`
  }
}

export class ModelAnswerUnusable extends Schema.TaggedError<ModelAnswerUnusable>()("ModelAnswerUnusable", {
  server: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `the language model at ${this.server} answered, but ${this.reason}; nothing was kept`
  }
}

export class ExtractionTimedOut extends Schema.TaggedError<ExtractionTimedOut>()("ExtractionTimedOut", {
  ms: Schema.Number
}) {
  override get message() {
    return `extraction took longer than ${this.ms} ms (MEMLEDGER_LLM_TIMEOUT_MS) and was stopped; nothing more was kept`
  }
}

export class TranscriptUnreadable extends Schema.TaggedError<TranscriptUnreadable>()("TranscriptUnreadable", {
  file: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `cannot read the transcript ${this.file}: ${this.reason}`
  }
}

/** Nothing is sent while the store cannot say whether the part was read already, nor keep what comes back. */
export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {
  reason: Schema.String
}) {
  override get message() {
    return `the store cannot be read, so nothing was sent: ${this.reason}`
  }
}

export type ExtractionError = ModelUnreachable | ModelAnswerUnusable | ExtractionTimedOut | TranscriptUnreadable | StoreUnavailable
