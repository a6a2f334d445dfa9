/**
 * The words of the domain as Effect Schemas: the single source for events,
 * CLI and tool inputs, and the lists shown in error messages.
 */
import { Schema } from "effect"
import { characterCount, quoted } from "./text.js"

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

/**
 * The content limit's one check, for every place that applies it (the schemas, the deciders'
 * scan, import lines): why `content` is too long, or undefined. Counted in characters (code
 * points, `characterCount`), the unit the limit is stated in. A text of at most 10,000 UTF-16
 * units has at most 10,000 characters, so the common case costs one comparison.
 */
export const contentTooLong = (content: string): string | undefined => {
  if (content.length <= MAX_CONTENT_LENGTH) return undefined
  const characters = characterCount(content)
  return characters > MAX_CONTENT_LENGTH ? `the content is ${characters} characters; the limit is ${MAX_CONTENT_LENGTH}` : undefined
}

/** Memory text: 1 to 10,000 characters, not only white space. */
export const Content = Schema.String.pipe(
  Schema.filter((s) => s.trim().length > 0, { message: () => "content is empty" }),
  // Schema.maxLength counts UTF-16 units; this counts characters, as JSON Schema's maxLength does.
  Schema.filter((s) => contentTooLong(s) === undefined, {
    title: `maxLength(${MAX_CONTENT_LENGTH})`,
    description: `a string at most ${MAX_CONTENT_LENGTH} character(s) long`,
    jsonSchema: { maxLength: MAX_CONTENT_LENGTH },
    message: (issue) => contentTooLong(String(issue.actual)) ?? "the content is too long"
  })
)

export const MAX_TAG_LENGTH = 100
export const MAX_TAGS = 50

/**
 * The one rule for a tag a writer gives, on every surface and in `mem import`: why it cannot be
 * one, or undefined. A blank tag is refused rather than dropped, and a long one rather than cut:
 * the writer is told, instead of finding a tag they never wrote.
 */
export const tagProblem = (tag: string): string | undefined => {
  const trimmed = tag.trim()
  if (trimmed.length === 0) return "a tag cannot be empty or blank"
  if (trimmed.length <= MAX_TAG_LENGTH) return undefined
  const characters = characterCount(trimmed)
  return characters > MAX_TAG_LENGTH ? `${quoted(trimmed)} is ${characters} characters; a tag is at most ${MAX_TAG_LENGTH}` : undefined
}

/** The first problem of a list of tags (too many, or one that `tagProblem` refuses), or undefined. */
export const tagsProblem = (tags: ReadonlyArray<string>): string | undefined => {
  if (tags.length > MAX_TAGS) return `${tags.length} tags; the limit is ${MAX_TAGS}`
  for (const tag of tags) {
    const problem = tagProblem(tag)
    if (problem !== undefined) return problem
  }
  return undefined
}

/**
 * A non-empty string of at most `max` characters, counted as code points (`characterCount`)
 * where Schema.maxLength counts UTF-16 units; advertised to JSON Schema as maxLength, which
 * counts characters too.
 */
export const textOfAtMost = (max: number, message: (text: string) => string) =>
  Schema.String.pipe(
    Schema.minLength(1),
    Schema.filter((s) => s.length <= max || characterCount(s) <= max, {
      title: `maxLength(${max})`,
      description: `a string at most ${max} character(s) long`,
      jsonSchema: { maxLength: max },
      message: (issue) => message(String(issue.actual))
    })
  )

/** A stored tag: 1 to 100 characters (events hold tags as the decider trimmed and scrubbed them). */
export const Tag = textOfAtMost(MAX_TAG_LENGTH, () => `a tag is at most ${MAX_TAG_LENGTH} characters`)
export const Confidence = Schema.Number.pipe(Schema.between(0, 1))

/** A cue written with a memory is at most this many characters (and 32 words, written-cues.ts). */
export const MAX_CUE_CHARACTERS = 400
/** A search takes at most this many further phrasings (`also`): more are not one need said several ways. */
export const MAX_ALSO = 5

export const MAX_ORIGIN_LENGTH = 500
export const MAX_AGENT_LENGTH = 100

/** A conversation (`claude-code:session/<id>`, `cli`, ...) or a writing client (`codex`). */
export const Origin = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_ORIGIN_LENGTH))
export const Agent = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_AGENT_LENGTH))

/** A project identity (a normalised git remote or an absolute path); `null` means global. */
export const MAX_PROJECT_LENGTH = 1000
export const ProjectName = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_PROJECT_LENGTH))

/**
 * A person's name, as `mem token add NAME` gives it and every event written through one of the
 * name's tokens records as its `author`: letters, digits and `.`, `_`, `-`, `@`, starting with
 * a letter or digit, at most 64 characters. Shown beside memories and matched exactly.
 */
export const MAX_PERSON_NAME_LENGTH = 64
export const PERSON_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/
export const PersonName = Schema.String.pipe(Schema.pattern(PERSON_NAME_PATTERN))

/** Why `name` cannot be a person's name, or undefined. */
export const personNameProblem = (name: string): string | undefined =>
  PERSON_NAME_PATTERN.test(name)
    ? undefined
    : `'${name.slice(0, 80)}' is not a name: use letters, digits and . _ - @, starting with a letter or digit, at most ${MAX_PERSON_NAME_LENGTH} characters`
