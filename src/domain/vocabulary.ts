/**
 * The words of the domain (brief section 1) as Effect Schemas: the single source for events,
 * CLI and tool inputs, and the lists shown in error messages.
 */
import { Schema } from "effect"

export const CATEGORIES = [
  "architecture",
  "convention",
  "decision",
  "pattern",
  "gotcha",
  "workaround",
  "troubleshooting",
  "command",
  "preference",
  "general"
] as const
export const Category = Schema.Literal(...CATEGORIES)
export type Category = typeof Category.Type

export const SCOPES = ["global", "project"] as const
export const Scope = Schema.Literal(...SCOPES)
export type Scope = typeof Scope.Type

export const SOURCES = ["explicit", "observed", "extracted", "imported"] as const
export const Source = Schema.Literal(...SOURCES)
export type Source = typeof Source.Type

export const STATUSES = ["confirmed", "tentative"] as const
export const Status = Schema.Literal(...STATUSES)
export type Status = typeof Status.Type

export const OUTCOMES = ["worked", "failed", "partial"] as const
export const Outcome = Schema.Literal(...OUTCOMES)
export type Outcome = typeof Outcome.Type

export const MAX_CONTENT_LENGTH = 10_000

/** Memory text: 1 to 10,000 characters, not only white space. */
export const Content = Schema.String.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "content is empty" }),
  Schema.maxLength(MAX_CONTENT_LENGTH, {
    message: (issue) => `content is ${String(issue.actual).length} characters; the limit is ${MAX_CONTENT_LENGTH}`
  })
)

export const Tag = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))
export const Confidence = Schema.Number.pipe(Schema.between(0, 1))

/** A conversation (`claude-code:session/<id>`, `cli`, ...) or a writing client (`codex`). */
export const Origin = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))
export const Agent = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

/** A project identity (a normalised git remote or an absolute path); `null` means global. */
export const ProjectName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000))
