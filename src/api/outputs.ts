/**
 * What each operation returns, as Effect Schemas: MCP output schemas, REST response bodies
 * and SDK result types.
 */
import { Schema } from "effect"
import { Category, Outcome } from "../domain/vocabulary.js"
import { ExportedEvent } from "../events/export-line.js"
import { Coverage, EventRef, LeftOutStage, Memory, MemoryRecord, OutcomeRef, ScoreTerms, SearchMode, TermEvents } from "./memory-wire.js"

export const SimilarMemory = Schema.Struct({
  id: Schema.String,
  shortId: Schema.String,
  content: Schema.String,
  category: Category,
  project: Schema.NullOr(Schema.String),
  /** How alike: the larger of word overlap and (with vectors) cosine similarity. */
  similarity: Schema.Number
})

/** What the privacy scan did to the text just written (docs/privacy.md); absent when nothing. */
export const PrivacyNotice = Schema.Struct({
  redacted: Schema.Array(Schema.String),
  privateDropped: Schema.Number,
  instructionLike: Schema.Array(Schema.String)
})
export type PrivacyNotice = typeof PrivacyNotice.Type

export const Stored = Schema.Struct({ stored: Schema.Literal(true), id: Schema.String, shortId: Schema.String, privacy: Schema.optional(PrivacyNotice) })
export const Confirmed = Schema.Struct({
  stored: Schema.Literal(false),
  confirmed: Schema.Literal(true),
  id: Schema.String,
  shortId: Schema.String,
  confirmations: Schema.Number,
  privacy: Schema.optional(PrivacyNotice)
})
export const SimilarExist = Schema.Struct({
  stored: Schema.Literal(false),
  reason: Schema.Literal("similar memories exist"),
  similar: Schema.Array(SimilarMemory),
  resolve: Schema.String
})
/** A capture that wrote nothing (docs/capture.md): its conversation already gave this span, or capture is off there. */
export const NotCaptured = Schema.Struct({ stored: Schema.Literal(false), reason: Schema.Literal("already captured", "capture is off") })
export const RememberOutput = Schema.Union(Stored, Confirmed, SimilarExist, NotCaptured)
export type RememberOutput = typeof RememberOutput.Type

export const RecalledMemory = Schema.Struct({
  ...Memory.fields,
  rank: Schema.Number,
  score: Schema.Number,
  terms: ScoreTerms,
  probation: Schema.Boolean,
  coverage: Schema.optional(Coverage)
})

export const RecallOutput = Schema.Struct({
  query: Schema.String,
  project: Schema.NullOr(Schema.String),
  mode: SearchMode,
  notice: Schema.optional(Schema.String),
  results: Schema.Array(RecalledMemory)
})
export type RecallOutput = typeof RecallOutput.Type

export const ExplainedResult = Schema.Struct({
  id: Schema.String,
  shortId: Schema.String,
  content: Schema.String,
  rank: Schema.Number,
  score: Schema.Number,
  probation: Schema.Boolean,
  terms: ScoreTerms,
  coverage: Schema.optional(Coverage),
  events: TermEvents
})

export const ExplainedLeftOut = Schema.Struct({
  id: Schema.String,
  shortId: Schema.NullOr(Schema.String),
  content: Schema.String,
  stage: LeftOutStage,
  reason: Schema.String,
  outcome: Schema.optional(Schema.Struct({ score: Schema.Number, worked: Schema.Number, failed: Schema.Number })),
  duplicateOf: Schema.optional(Schema.String),
  coverage: Schema.optional(Coverage)
})

export const ExplainOutput = Schema.Struct({
  query: Schema.String,
  project: Schema.NullOr(Schema.String),
  mode: SearchMode,
  notice: Schema.optional(Schema.String),
  at: Schema.String,
  results: Schema.Array(ExplainedResult),
  leftOut: Schema.Array(ExplainedLeftOut)
})
export type ExplainOutput = typeof ExplainOutput.Type

export const OutcomeOutput = Schema.Struct({ memory_ids: Schema.Array(Schema.String), outcome: Outcome, recorded: Schema.Literal(true) })
export type OutcomeOutput = typeof OutcomeOutput.Type

export const ForgetOutput = Schema.Struct({ id: Schema.String, forgotten: Schema.Boolean, changed: Schema.Boolean })
export type ForgetOutput = typeof ForgetOutput.Type

export const ConversationOutput = Schema.Struct({
  origin: Schema.String,
  forgotten: Schema.Boolean,
  changed: Schema.Boolean,
  events: Schema.Number
})
export type ConversationOutput = typeof ConversationOutput.Type

export const ContextOutput = Schema.Struct({
  project: Schema.NullOr(Schema.String),
  text: Schema.String,
  tokens: Schema.Number,
  budget: Schema.Number,
  included: Schema.Array(Schema.String),
  omitted: Schema.Number
})
export type ContextOutput = typeof ContextOutput.Type

export const MemoryOutput = Memory
export const MemoriesOutput = Schema.Struct({
  memories: Schema.Array(Memory),
  more: Schema.Boolean.annotations({ description: "whether the limit left memories out" }),
  next: Schema.optional(Schema.String.annotations({ description: "when `more`: the `cursor` of the next page" }))
})
export type MemoriesOutput = typeof MemoriesOutput.Type

export const ReviewOutput = Schema.Struct({
  accepted: Schema.Array(Schema.String).annotations({ description: "the ids confirmed" }),
  rejected: Schema.Array(Schema.String).annotations({ description: "the ids forgotten" }),
  tentative: Schema.Array(Memory).annotations({ description: "the tentative memories still waiting, newest first" }),
  more: Schema.Boolean.annotations({ description: "whether the limit left tentative memories out" })
})
export type ReviewOutput = typeof ReviewOutput.Type

export const EditOutput = Schema.Struct({ id: Schema.String, changed: Schema.Boolean, privacy: Schema.optional(PrivacyNotice) })
export type EditOutput = typeof EditOutput.Type

/** A cue written with the memory (changed with edit). */
export const WrittenCue = Schema.Struct({ text: Schema.String, source: Schema.Literal("written") })
/**
 * A cue learned from a conversation: what it asked before it reported that the memory worked.
 * It finds the memory only where it was learned (`project`, null for global), and weighs less
 * as its outcomes age, like the memory's own record.
 */
export const LearnedCue = Schema.Struct({
  text: Schema.String,
  source: Schema.Literal("learned"),
  project: Schema.NullOr(Schema.String),
  weight: Schema.Number,
  /** The conversation that taught it, its outcome event and the recall that asked it. */
  origin: Schema.String,
  outcomeEventId: Schema.String,
  recallEventId: Schema.String,
  learnedAt: Schema.String
})
export const Cue = Schema.Union(WrittenCue, LearnedCue)
/** A memory with its cues: the written ones first, then the learned ones, strongest first. */
export const CuesOutput = Schema.Struct({ memory: Memory, cues: Schema.Array(Cue) })
export type CuesOutput = typeof CuesOutput.Type

export const DropCueOutput = Schema.Struct({ id: Schema.String, dropped: Schema.String })
export type DropCueOutput = typeof DropCueOutput.Type

export const SupersedeOutput = Schema.Struct({ id: Schema.String, supersededBy: Schema.String })
export type SupersedeOutput = typeof SupersedeOutput.Type

export const ConfirmOutput = Schema.Union(Stored, Confirmed)
export type ConfirmOutput = typeof ConfirmOutput.Type

export const Conversation = Schema.Struct({
  origin: Schema.String,
  events: Schema.Number,
  memoriesAdded: Schema.Number,
  outcomes: Schema.Number,
  firstAt: Schema.String,
  lastAt: Schema.String,
  forgotten: Schema.Boolean,
  purgedEvents: Schema.Number
})
export const ConversationsOutput = Schema.Struct({ conversations: Schema.Array(Conversation) })
export type ConversationsOutput = typeof ConversationsOutput.Type

/**
 * One event as `mem export` writes it: the envelope, the payload (null once purged), both hashes.
 * Named, so that the OpenAPI document holds it once, as a component, however many answers carry it.
 */
export const LogEvent = ExportedEvent.annotations({ identifier: "LogEvent" })
/** A page of the log; `next` is the `after` for the following page, null at the end. */
export const LogOutput = Schema.Struct({ events: Schema.Array(LogEvent), next: Schema.NullOr(Schema.Number) })
export type LogOutput = typeof LogOutput.Type

export const StatsOutput = Schema.Struct({
  path: Schema.String,
  events: Schema.Number,
  memories: Schema.Struct({ live: Schema.Number, forgotten: Schema.Number, superseded: Schema.Number }),
  byCategory: Schema.Record({ key: Schema.String, value: Schema.Number }),
  projects: Schema.Number,
  conversations: Schema.Struct({ total: Schema.Number, forgotten: Schema.Number }),
  outcomes: Schema.Struct({ worked: Schema.Number, failed: Schema.Number, partial: Schema.Number }),
  records: Schema.Struct({ memories: Schema.Number, gated: Schema.Number }),
  bytes: Schema.Number,
  search: Schema.Struct({
    mode: SearchMode,
    embedder: Schema.String,
    vectorsCurrent: Schema.NullOr(Schema.Boolean)
  })
})
export type StatsOutput = typeof StatsOutput.Type

export const HealthOutput = Schema.Struct({ ok: Schema.Literal(true), version: Schema.String })

export { EventRef, MemoryRecord, OutcomeRef }
