/**
 * How a memory and its record look on the wire (MCP structuredContent, REST bodies, SDK
 * results). One schema, so every surface prints the same fields with the same names.
 */
import { Schema } from "effect"
import { Category, Scope, Source, Status } from "../domain/vocabulary.js"

/** The outcome record as of now: decayed counts, the raw event counts, and the gate's verdict. */
export const MemoryRecord = Schema.Struct({
  worked: Schema.Number,
  failed: Schema.Number,
  score: Schema.Number,
  workedCount: Schema.Number,
  failedCount: Schema.Number,
  partialCount: Schema.Number,
  gated: Schema.Boolean
})
export type MemoryRecord = typeof MemoryRecord.Type

export const Memory = Schema.Struct({
  id: Schema.String,
  shortId: Schema.String,
  content: Schema.String,
  category: Category,
  scope: Scope,
  project: Schema.NullOr(Schema.String),
  tags: Schema.Array(Schema.String),
  /** Questions or phrasings it answers, written with it (learned cues: `mem cues`). */
  cues: Schema.Array(Schema.String),
  source: Source,
  status: Status,
  confidence: Schema.Number,
  confirmations: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String,
  origin: Schema.String,
  agent: Schema.String,
  forgotten: Schema.Boolean,
  /** Why it was forgotten, as the forget said; null unless forgotten. */
  forgottenReason: Schema.NullOr(Schema.String),
  supersededBy: Schema.NullOr(Schema.String),
  distinctFrom: Schema.Array(Schema.String),
  /** The privacy scan found text that reads like instructions to an agent: never a rule. */
  instructionLike: Schema.Boolean,
  /** Present when private: seen only through tokens of its author's name (docs/serve.md). */
  private: Schema.optional(Schema.Literal(true)),
  record: MemoryRecord
})
export type Memory = typeof Memory.Type

const Term = { value: Schema.Number, weight: Schema.Number, contribution: Schema.Number }

/** A learned cue whose vector gave a result's cosine: its own cosine to the query, times its weight now. */
export const VectorCue = Schema.Struct({
  text: Schema.String,
  origin: Schema.String,
  outcomeEventId: Schema.String,
  recallEventId: Schema.String,
  cosine: Schema.Number,
  weight: Schema.Number
})

/** Every term of a score; the contributions add up to the score. */
export const ScoreTerms = Schema.Struct({
  relevance: Schema.Struct({
    ...Term,
    keyword: Schema.Number,
    vector: Schema.Number,
    bm25: Schema.Number,
    cosine: Schema.Number,
    viaCue: Schema.optional(VectorCue)
  }),
  outcome: Schema.Struct({ ...Term, score: Schema.Number, worked: Schema.Number, failed: Schema.Number }),
  recency: Schema.Struct({ ...Term, ageDays: Schema.Number }),
  confidence: Schema.Struct(Term),
  frequency: Schema.Struct({ ...Term, confirmations: Schema.Number })
})

export const SearchMode = Schema.Literal("keyword", "hybrid")

export const EventRef = Schema.Struct({
  id: Schema.String,
  seq: Schema.Number,
  type: Schema.String,
  recordedAt: Schema.String,
  origin: Schema.String
})

export const OutcomeRef = Schema.Struct({
  ...EventRef.fields,
  outcome: Schema.Literal("worked", "failed", "partial"),
  weight: Schema.Number,
  counts: Schema.Literal("worked", "failed")
})

export const TermEvents = Schema.Struct({
  relevance: Schema.Array(EventRef),
  outcome: Schema.Array(OutcomeRef),
  recency: Schema.Array(EventRef),
  confidence: Schema.Array(EventRef),
  frequency: Schema.Array(EventRef)
})

export const LeftOutStage = Schema.Literal(
  "relevance",
  "gate",
  "pool",
  "duplicate",
  "limit",
  "coverage",
  "forgotten",
  "superseded",
  "scope",
  "category",
  "forgotten-conversation"
)

/** How much of the query a memory answers, and through which of its texts and which phrasing. */
export const Coverage = Schema.Struct({
  value: Schema.Number,
  phrasing: Schema.String,
  source: Schema.Literal("content", "written cue", "learned cue"),
  cue: Schema.optional(Schema.String),
  learned: Schema.optional(Schema.Struct({ origin: Schema.String, outcomeEventId: Schema.String, recallEventId: Schema.String }))
})
export type Coverage = typeof Coverage.Type
