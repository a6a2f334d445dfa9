/**
 * What is wrong with one memory line of an import, in a few words a person can act on
 * ("tags: a list of strings"), instead of the schema's dump of every field it expects. Checked
 * field by field before the line is decoded, so the schema (import-lines.ts) only ever reads
 * lines that pass. Tags and the tag count are the decider's rule, as for `mem add`.
 */
import { Either, Schema } from "effect"
import { nearestName } from "../domain/nearest-name.js"
import { CATEGORIES, contentTooLong, SOURCES } from "../domain/vocabulary.js"
import { agentProblem, identitySecret, originProblem } from "./actor.js"

export const NOT_A_MEMORY_LINE = 'a memory line is a JSON object with at least "content"'

/**
 * Every field a memory line may have. Any other is refused, as the MCP tools and REST refuse
 * theirs: a misspelt "projet" silently dropped would make a project's memory a global one. A
 * field added to import lines is added here, to `MemoryLine` and to `memoryItemOf`.
 */
export const MEMORY_LINE_FIELDS = ["content", "category", "project", "tags", "cues", "origin", "agent", "source", "createdAt"] as const
export const MEMORY_LINE_FIELD_SET: ReadonlySet<string> = new Set(MEMORY_LINE_FIELDS)

const MAX_PROJECT_LENGTH = 1000
const CATEGORY_SET = new Set<unknown>(CATEGORIES)
const SOURCE_SET = new Set<unknown>(SOURCES)
const decodeTime = Schema.decodeUnknownEither(Schema.DateTimeUtc)

/** The first problem of a parsed line read as a memory, or undefined when it is a valid one. */
export const memoryLineProblem = (value: unknown): string | undefined => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return NOT_A_MEMORY_LINE
  const unknown = Object.keys(value).filter((key) => !MEMORY_LINE_FIELD_SET.has(key))
  if (unknown.length > 0) return unknownFieldsProblem(unknown)
  const { content, category, project, tags, origin, agent, source, createdAt, cues } = value as Record<string, unknown>
  if (content === undefined) return NOT_A_MEMORY_LINE
  if (typeof content !== "string") return "content: a string of 1 to 10,000 characters"
  if (content.trim().length === 0) return "the content is empty"
  const tooLong = contentTooLong(content)
  if (tooLong !== undefined) return tooLong
  if (category != null && !CATEGORY_SET.has(category)) {
    return typeof category === "string"
      ? `unknown category '${category.slice(0, 80)}'; use one of: ${CATEGORIES.join(", ")}`
      : `category: one of ${CATEGORIES.join(", ")}`
  }
  if (project != null && !(typeof project === "string" && project.length > 0 && project.length <= MAX_PROJECT_LENGTH)) {
    return `project: a string of 1 to ${MAX_PROJECT_LENGTH} characters, or null (or no "project") for a global memory`
  }
  if (tags != null && !(Array.isArray(tags) && tags.every((t) => typeof t === "string"))) return "tags: a list of strings"
  if (cues != null && !(Array.isArray(cues) && cues.every((c) => typeof c === "string"))) return "cues: a list of short questions or phrasings (strings)"
  const who = actorFieldProblem("origin", origin, originProblem) ?? actorFieldProblem("agent", agent, agentProblem)
  if (who !== undefined) return who
  if (source != null && !SOURCE_SET.has(source)) return `source: one of ${SOURCES.join(", ")}`
  if (createdAt != null && Either.isLeft(decodeTime(createdAt))) {
    return "createdAt: not a date (use ISO-8601, such as 2025-01-31T09:00:00Z)"
  }
  return undefined
}

/** Names at most a few fields, each cut short: a line may carry thousands of made-up keys. */
const MAX_NAMED = 4
const MAX_NAME_LENGTH = 40

const unknownFieldsProblem = (unknown: ReadonlyArray<string>): string => {
  const named = unknown.slice(0, MAX_NAMED).map((key) => (key.length <= MAX_NAME_LENGTH ? key : `${key.slice(0, MAX_NAME_LENGTH)}…`))
  const more = unknown.length > MAX_NAMED ? [`${unknown.length - MAX_NAMED} more`] : []
  const fields = `the fields are ${listed(MEMORY_LINE_FIELDS)}`
  if (unknown.length > 1) return `${listed([...named, ...more])} are not fields of a memory line; ${fields}`
  const meant = nearestName(unknown[0]!, MEMORY_LINE_FIELDS)
  return `${named[0]} is not a field of a memory line${meant === undefined ? "" : ` (did you mean ${meant}?)`}; ${fields}`
}

/** "a, b and c". */
const listed = (words: ReadonlyArray<string>): string =>
  words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`

const actorFieldProblem = (field: string, value: unknown, problem: (s: string) => string | undefined): string | undefined => {
  if (value == null) return undefined
  if (typeof value !== "string") return `${field}: a string`
  const reason = problem(value)
  return reason === undefined ? identitySecret(field, value)?.message : `${field} ${reason}`
}
