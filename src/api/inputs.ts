/**
 * What each operation takes, as Effect Schemas: the MCP tools' input schemas, the REST
 * payloads and the SDK's argument types all come from here. Names are snake_case where an
 * agent types them (memory_ids, distinct_from), as the tool contract says.
 */
import { Schema } from "effect"
import { ID_PREFIX_MIN } from "../domain/ids.js"
import { characterCount } from "../domain/text.js"
import {
  Category,
  Content,
  MAX_ALSO,
  MAX_CONTENT_LENGTH,
  MAX_CUE_CHARACTERS,
  MAX_PROJECT_LENGTH,
  Outcome,
  Scope,
  Source,
  Status,
  Tag,
  textOfAtMost
} from "../domain/vocabulary.js"
import { Capture } from "../events/capture.js"
import { EVENT_TYPES, MAX_WRITTEN_CUES, type EventType } from "../events/events.js"

const described = <A, I>(schema: Schema.Schema<A, I>, description: string): Schema.Schema<A, I> => schema.annotations({ description })

/**
 * An input object that refuses fields it does not declare, wherever it is decoded: the MCP
 * tools, the REST payloads, the SDK and the CLI all decode with these schemas. Effect drops
 * unknown fields by default, so a misspelt or misplaced field was silently ignored (PATCH
 * `{"scope": "project"}`, which edit cannot change, answered `changed: false`), while the JSON
 * Schema derived from the same struct says `additionalProperties: false`. The annotation travels
 * with the schema, not with `.fields`: a struct rebuilt from another's fields needs it again.
 */
export const InputStruct = <F extends Schema.Struct.Fields>(fields: F): Schema.Struct<F> =>
  Schema.Struct(fields).annotations({ parseOptions: { onExcessProperty: "error" } })

/**
 * A memory id as typed: the full 26 characters or a unique prefix of 6 or more. The messages
 * are the store's own (id-prefix.ts), so a bad id reads the same whether the schema or the
 * store caught it.
 */
export const TypedId = described(
  Schema.String.pipe(
    Schema.minLength(ID_PREFIX_MIN, { message: () => `type at least ${ID_PREFIX_MIN} characters` }),
    Schema.maxLength(26, { message: () => "ids are up to 26 characters of 0-9 and a-z without i, l, o, u" })
  ),
  "a memory id or a unique prefix of it (6+ characters)"
)
/**
 * The numeric ranges of the inputs, stated once: the schemas below hold to them, and the CLI
 * checks its options against them so that its message names the option typed.
 */
export const RANGES = {
  recallLimit: [1, 100],
  listLimit: [1, 1000],
  budget: [50, 100_000]
} as const

const Project = described(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_PROJECT_LENGTH)), "the project (normalised git remote); omit for the current project")
const Query = described(
  textOfAtMost(MAX_CONTENT_LENGTH, (query) => `the query is ${characterCount(query)} characters; the limit is ${MAX_CONTENT_LENGTH}`),
  "what you are looking for, in plain words"
)
const Limit = described(Schema.Int.pipe(Schema.between(...RANGES.recallLimit)), "how many results, 1 to 100 (default 10)")
const Task = described(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)), "the task being worked on (e.g. beads:bd-12)")
/** Who this write is for, when the caller knows better than the connection (a conversation id). */
const Origin = described(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)), "the conversation this comes from; defaults to the client's session")

/** One cue: a question or phrasing the memory answers. Its 32-word limit is the decider's (written-cues.ts). */
const Cue = described(
  textOfAtMost(MAX_CUE_CHARACTERS, () => `a cue is at most ${MAX_CUE_CHARACTERS} characters`),
  "a question or phrasing someone would ask when they need this memory, at most 32 words"
)
const Cues = Schema.Array(Cue).pipe(
  Schema.maxItems(MAX_WRITTEN_CUES, { message: (issue) => `${countOf(issue.actual)} cues; a memory takes at most ${MAX_WRITTEN_CUES}` })
)
/**
 * Further phrasings of the one need a query states: a second wording finds a memory the first
 * one's words miss. Each is held to the query's own limit.
 */
const Phrasings = Schema.Array(
  textOfAtMost(MAX_CONTENT_LENGTH, (p) => `a phrasing is ${characterCount(p)} characters; the limit is ${MAX_CONTENT_LENGTH}`)
).pipe(Schema.maxItems(MAX_ALSO, { message: (issue) => `${countOf(issue.actual)} further phrasings; at most ${MAX_ALSO}` }))
const ALSO = `up to ${MAX_ALSO} further phrasings of the same need, searched with the query: the words a stored memory would likely use (technical terms, names of commands, files or tools)`
const Also = described(Phrasings, ALSO)

/** Who sees a memory on a server with people's tokens (docs/serve.md, "People and tokens"). */
const Visibility = described(
  Schema.Literal("shared", "private"),
  "shared (the default: everyone on the server) or private (only through tokens of your own name; needs a server token)"
)

const rememberFields = {
  content: described(Content, "the memory: one short, self-contained statement"),
  category: Schema.optional(described(Category, "what kind of knowledge this is (default general)")),
  scope: Schema.optional(described(Scope, "project (default when a project is known) or global (every project)")),
  project: Schema.optional(Project),
  tags: Schema.optional(Schema.Array(Tag).pipe(Schema.maxItems(50))),
  source: Schema.optional(described(Source, "how this memory was obtained: explicit (the default: someone said it), imported, extracted (drawn out of a conversation or document), or observed (you noticed it; tentative until confirmed)")),
  confirms: Schema.optional(described(TypedId, "this restates that memory")),
  supersedes: Schema.optional(described(TypedId, "this replaces that memory")),
  distinct_from: Schema.optional(described(TypedId, "this differs from that look-alike memory; store it anyway")),
  cues: Schema.optional(described(Cues, `up to ${MAX_WRITTEN_CUES} questions or phrasings that should find this memory, worded as someone would ask when they need it`)),
  visibility: Schema.optional(Visibility),
  origin: Schema.optional(Origin)
}

/** What an agent passes to remember (the MCP tool): capture keys are memledger's own. */
export const AgentRememberInput = InputStruct(rememberFields)

/**
 * remember as every surface takes it: `capture` is set by memledger's hooks and transcript
 * import (docs/capture.md), also when they reach a shared server over REST.
 */
export const RememberInput = InputStruct({ ...rememberFields, capture: Schema.optional(Capture) })
export type RememberInput = typeof RememberInput.Type

export const RecallInput = InputStruct({
  query: Query,
  also: Schema.optional(Also),
  limit: Schema.optional(Limit),
  project: Schema.optional(Project),
  category: Schema.optional(Category),
  task: Schema.optional(Task),
  origin: Schema.optional(Origin)
})
export type RecallInput = typeof RecallInput.Type

export const ExplainInput = InputStruct({
  query: Query,
  also: Schema.optional(Also),
  limit: Schema.optional(Limit),
  project: Schema.optional(Project),
  category: Schema.optional(Category),
  at: Schema.optional(described(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(40)), "answer as of this time (ISO-8601)"))
})
export type ExplainInput = typeof ExplainInput.Type

export const RecordOutcomeInput = InputStruct({
  memory_ids: described(Schema.Array(TypedId).pipe(Schema.minItems(1), Schema.maxItems(100)), "the memories you actually used"),
  outcome: described(Outcome, "worked, failed or partial"),
  task: Schema.optional(Task),
  note: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))),
  origin: Schema.optional(Origin)
})
export type RecordOutcomeInput = typeof RecordOutcomeInput.Type

export const MemoryIdInput = InputStruct({ id: TypedId })
export const ConfirmInput = InputStruct({ id: TypedId, origin: Schema.optional(Origin) })
export type ConfirmInput = typeof ConfirmInput.Type
export type MemoryIdInput = typeof MemoryIdInput.Type

export const ForgetInput = InputStruct({
  memory_id: TypedId,
  reason: Schema.optional(Schema.String.pipe(Schema.maxLength(500))),
  origin: Schema.optional(Origin)
})
export type ForgetInput = typeof ForgetInput.Type

export const ForgetConversationInput = InputStruct({
  origin: described(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)), "the conversation whose contributions to forget"),
  undo: Schema.optional(described(Schema.Boolean, "restore what an earlier forget removed"))
})
export type ForgetConversationInput = typeof ForgetConversationInput.Type

export const GetContextInput = InputStruct({
  project: Schema.optional(Project),
  query: Schema.optional(Query),
  also: Schema.optional(described(Phrasings, `${ALSO}; used only with a query`)),
  budget: Schema.optional(described(Schema.Int.pipe(Schema.between(...RANGES.budget)), "at most this many tokens (default 1500)")),
  task: Schema.optional(Task),
  origin: Schema.optional(Origin)
})
export type GetContextInput = typeof GetContextInput.Type

/** Where a page of memories starts: opaque to clients, who pass back the `next` they were given. */
const Cursor = Schema.String.pipe(Schema.pattern(/^[0-9]{1,16}$/, { message: () => "a cursor is the `next` of a page, as it was given" }))

export const ListInput = InputStruct({
  project: Schema.optional(Project),
  category: Schema.optional(Category),
  status: Schema.optional(described(Status, "only tentative memories (observed, not yet confirmed: what `review` lists) or only confirmed ones")),
  all: Schema.optional(described(Schema.Boolean, "include forgotten and superseded memories")),
  tags: Schema.optional(described(Schema.Array(Tag).pipe(Schema.maxItems(10)), "only memories carrying every one of these tags")),
  origin: Schema.optional(described(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)), "only memories this conversation added")),
  agent: Schema.optional(described(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)), "only memories this client added (e.g. claude-code)")),
  cursor: Schema.optional(described(Cursor, "the `next` of the page before: the page after it")),
  limit: Schema.optional(Schema.Int.pipe(Schema.between(...RANGES.listLimit)))
})
export type ListInput = typeof ListInput.Type

/** Accepts and rejects tentative memories, then lists those still waiting. */
export const ReviewInput = InputStruct({
  accept: Schema.optional(described(Schema.Array(TypedId).pipe(Schema.maxItems(20)), "tentative memories the user accepts: each is confirmed")),
  reject: Schema.optional(described(Schema.Array(TypedId).pipe(Schema.maxItems(20)), "tentative memories the user rejects: each is forgotten (a person can restore it)")),
  project: Schema.optional(Project),
  limit: Schema.optional(described(Schema.Int.pipe(Schema.between(...RANGES.recallLimit)), "how many tentative memories to list, 1 to 100 (default 20)")),
  origin: Schema.optional(Origin)
})
export type ReviewInput = typeof ReviewInput.Type

export const EditInput = InputStruct({
  id: TypedId,
  content: Schema.optional(Content),
  category: Schema.optional(Category),
  tags: Schema.optional(Schema.Array(Tag).pipe(Schema.maxItems(50))),
  cues: Schema.optional(described(Cues, "the written cues, replacing the old ones as a whole; [] removes them")),
  visibility: Schema.optional(Visibility),
  origin: Schema.optional(Origin)
})
export type EditInput = typeof EditInput.Type

/** Drops one of a memory's learned cues; written cues are changed with edit. */
export const DropCueInput = InputStruct({
  id: TypedId,
  cue: described(textOfAtMost(MAX_CUE_CHARACTERS, () => `a cue is at most ${MAX_CUE_CHARACTERS} characters`), "the learned cue, as its memory's cues list it"),
  origin: Schema.optional(Origin)
})
export type DropCueInput = typeof DropCueInput.Type

export const SupersedeInput = InputStruct({ id: TypedId, by: described(TypedId, "the memory that replaces it"), origin: Schema.optional(Origin) })
export type SupersedeInput = typeof SupersedeInput.Type

export const LogInput = InputStruct({
  after: Schema.optional(described(Schema.Int.pipe(Schema.nonNegative()), "events after this sequence number")),
  before: Schema.optional(described(Schema.Int.pipe(Schema.positive()), "events before this sequence number")),
  newest_first: Schema.optional(described(Schema.Boolean, "the newest events first; `next` is then the `before` of the following page")),
  limit: Schema.optional(Schema.Int.pipe(Schema.between(...RANGES.listLimit))),
  memory: Schema.optional(TypedId),
  origin: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))),
  types: Schema.optional(described(Schema.Array(Schema.Literal(...(EVENT_TYPES as [EventType, ...EventType[]]))).pipe(Schema.maxItems(20)), "only events of these types"))
})
export type LogInput = typeof LogInput.Type

/**
 * No fields. Effect checks an empty struct only for not being null or undefined, whatever its
 * parse options, so this accepts extra fields; the MCP `stats` tool uses a schema of its own.
 */
export const NoInput = Schema.Struct({})

/** The length of an array a schema refused for having too many items. */
const countOf = (actual: unknown): number => (Array.isArray(actual) ? actual.length : 0)
