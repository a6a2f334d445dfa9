/**
 * The REST API as an @effect/platform `HttpApi`, declared from the same schemas as the MCP
 * tools: the server's handlers, the OpenAPI document at /openapi.json and the remote client
 * (`OperationsRemote`) are all derived from this one declaration.
 */
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { JSONSchema, Schema } from "effect"
import { Category, Tag } from "../domain/vocabulary.js"
import { EVENT_TYPES, type EventType } from "../events/events.js"
import * as Console from "./console-wire.js"
import * as In from "./inputs.js"
import * as Out from "./outputs.js"
import { VERSION } from "../version.js"

const errorFields = {
  error: Schema.String.annotations({ description: "the error's name, e.g. MemoryNotFound" }),
  message: Schema.String.annotations({ description: "what went wrong and what to do" })
}

/**
 * Every error body is `{error, message, status}`. The status is in the body too because
 * classes encode structurally: without a field of its own, a 404 would encode as the first
 * error class listed.
 */
export class BadRequest extends Schema.Class<BadRequest>("BadRequest")({ ...errorFields, status: Schema.Literal(400) }, HttpApiSchema.annotations({ status: 400 })) {}
export class Unauthorized extends Schema.Class<Unauthorized>("Unauthorized")({ ...errorFields, status: Schema.Literal(401) }, HttpApiSchema.annotations({ status: 401 })) {}
export class Forbidden extends Schema.Class<Forbidden>("Forbidden")({ ...errorFields, status: Schema.Literal(403) }, HttpApiSchema.annotations({ status: 403 })) {}
export class NotFound extends Schema.Class<NotFound>("NotFound")({ ...errorFields, status: Schema.Literal(404) }, HttpApiSchema.annotations({ status: 404 })) {}
export class Conflict extends Schema.Class<Conflict>("Conflict")({ ...errorFields, status: Schema.Literal(409) }, HttpApiSchema.annotations({ status: 409 })) {}
export class Unavailable extends Schema.Class<Unavailable>("Unavailable")({ ...errorFields, status: Schema.Literal(503) }, HttpApiSchema.annotations({ status: 503 })) {}

export type ApiError = BadRequest | Unauthorized | Forbidden | NotFound | Conflict | Unavailable

const EventTypeName = Schema.Literal(...(EVENT_TYPES as [EventType, ...EventType[]]))
const IdPath = Schema.Struct({ id: In.TypedId })
const { id: _editId, ...editFields } = In.EditInput.fields
const { memory_id: _forgetId, ...forgetFields } = In.ForgetInput.fields
const { id: _supersedeId, ...supersedeFields } = In.SupersedeInput.fields

/** A query parameter that may be repeated (`?tags=a&tags=b`): one value or several, always a list inside. */
const Repeated = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.transform(Schema.Union(item, Schema.Array(item)), Schema.Array(Schema.typeSchema(item)), {
    strict: true,
    decode: (value) => (Array.isArray(value) ? (value as ReadonlyArray<A>) : [value as A]),
    encode: (values) => values
  })

/** Query strings carry text only: numbers and booleans are parsed from it. */
const ListParams = Schema.Struct({
  project: In.ListInput.fields.project,
  category: Schema.optional(Category),
  status: In.ListInput.fields.status,
  all: Schema.optional(Schema.BooleanFromString),
  tags: Schema.optional(Repeated(Tag).pipe(Schema.maxItems(10))).annotations({ description: "only memories carrying every one of these tags (repeat the parameter)" }),
  origin: In.ListInput.fields.origin,
  agent: In.ListInput.fields.agent,
  cursor: In.ListInput.fields.cursor,
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 1000)))
})
const LogParams = Schema.Struct({
  after: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative())),
  before: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.positive())),
  newest_first: Schema.optional(Schema.BooleanFromString),
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 1000))),
  memory: In.LogInput.fields.memory,
  origin: In.LogInput.fields.origin,
  types: Schema.optional(Repeated(EventTypeName).pipe(Schema.maxItems(20))).annotations({ description: "only events of these types (repeat the parameter)" })
})
const TaskParams = Schema.Struct({
  before: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.positive())),
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 100)))
})
const LiveParams = Schema.Struct({
  after: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.nonNegative())).annotations({
    description: "send the events after this sequence number first; without it, only events appended from now on"
  })
})
/** One event a line, as `GET /events` gives each, for as long as the client reads. */
const EventLines = Schema.String.pipe(HttpApiSchema.withEncoding({ kind: "Text", contentType: "application/x-ndjson" })).annotations({
  description: "newline-delimited JSON: one event a line, each as GET /events gives it; the answer never ends on its own"
})

const { id: _confirmId, ...confirmFields } = In.ConfirmInput.fields
const { id: _dropCueId, ...dropCueFields } = In.DropCueInput.fields

export const memoriesGroup = HttpApiGroup.make("memories")
  .add(HttpApiEndpoint.post("remember", "/memories").setPayload(In.RememberInput).addSuccess(Out.RememberOutput))
  .add(HttpApiEndpoint.get("list", "/memories").setUrlParams(ListParams).addSuccess(Out.MemoriesOutput))
  .add(HttpApiEndpoint.post("review", "/memories/review").setPayload(In.ReviewInput).addSuccess(Out.ReviewOutput))
  .add(HttpApiEndpoint.get("get", "/memories/:id").setPath(IdPath).addSuccess(Out.MemoryOutput))
  .add(HttpApiEndpoint.patch("edit", "/memories/:id").setPath(IdPath).setPayload(In.InputStruct(editFields)).addSuccess(Out.EditOutput))
  .add(HttpApiEndpoint.post("forget", "/memories/:id/forget").setPath(IdPath).setPayload(In.InputStruct(forgetFields)).addSuccess(Out.ForgetOutput))
  .add(HttpApiEndpoint.post("restore", "/memories/:id/restore").setPath(IdPath).setPayload(In.InputStruct(forgetFields)).addSuccess(Out.ForgetOutput))
  .add(HttpApiEndpoint.post("confirm", "/memories/:id/confirm").setPath(IdPath).setPayload(In.InputStruct(confirmFields)).addSuccess(Out.ConfirmOutput))
  .add(HttpApiEndpoint.post("supersede", "/memories/:id/supersede").setPath(IdPath).setPayload(In.InputStruct(supersedeFields)).addSuccess(Out.SupersedeOutput))
  .add(HttpApiEndpoint.get("record", "/memories/:id/record").setPath(IdPath).addSuccess(Console.RecordOutput))
  .add(HttpApiEndpoint.get("cues", "/memories/:id/cues").setPath(IdPath).addSuccess(Out.CuesOutput))
  .add(HttpApiEndpoint.post("dropCue", "/memories/:id/cues/drop").setPath(IdPath).setPayload(In.InputStruct(dropCueFields)).addSuccess(Out.DropCueOutput))

export const recallGroup = HttpApiGroup.make("recall")
  .add(HttpApiEndpoint.post("search", "/search").setPayload(In.RecallInput).addSuccess(Out.RecallOutput))
  .add(HttpApiEndpoint.post("why", "/why").setPayload(In.ExplainInput).addSuccess(Out.ExplainOutput))
  .add(HttpApiEndpoint.post("context", "/context").setPayload(In.GetContextInput).addSuccess(Out.ContextOutput))

export const outcomesGroup = HttpApiGroup.make("outcomes").add(
  HttpApiEndpoint.post("record", "/outcomes").setPayload(In.RecordOutcomeInput).addSuccess(Out.OutcomeOutput)
)

const OriginPayload = In.InputStruct({ origin: In.ForgetConversationInput.fields.origin })

export const conversationsGroup = HttpApiGroup.make("conversations")
  .add(HttpApiEndpoint.get("list", "/conversations").addSuccess(Out.ConversationsOutput))
  .add(HttpApiEndpoint.post("forget", "/conversations/forget").setPayload(OriginPayload).addSuccess(Out.ConversationOutput))
  .add(HttpApiEndpoint.post("restore", "/conversations/restore").setPayload(OriginPayload).addSuccess(Out.ConversationOutput))

export const systemGroup = HttpApiGroup.make("system")
  .add(HttpApiEndpoint.get("stats", "/stats").addSuccess(Out.StatsOutput))
  .add(HttpApiEndpoint.get("events", "/events").setUrlParams(LogParams).addSuccess(Out.LogOutput))
  .add(HttpApiEndpoint.get("health", "/health").addSuccess(Out.HealthOutput))
  .add(HttpApiEndpoint.get("overview", "/overview").addSuccess(Console.OverviewOutput))
  .add(HttpApiEndpoint.get("tasks", "/tasks").setUrlParams(TaskParams).addSuccess(Console.TasksOutput))
  .add(HttpApiEndpoint.post("purge", "/purge").setPayload(Console.PurgeInput).addSuccess(Console.PurgeOutput))

/** The log as it grows: streamed, so it is answered by a handler of its own (rest-handlers.ts), not by an operation. */
export const liveGroup = HttpApiGroup.make("live").add(HttpApiEndpoint.get("events", "/events/live").setUrlParams(LiveParams).addSuccess(EventLines))

export const MemledgerApi = HttpApi.make("memledger")
  .add(memoriesGroup)
  .add(recallGroup)
  .add(outcomesGroup)
  .add(conversationsGroup)
  .add(systemGroup)
  .add(liveGroup)
  .addError(BadRequest)
  .addError(Unauthorized)
  .addError(Forbidden)
  .addError(NotFound)
  .addError(Conflict)
  .addError(Unavailable)
  .annotate(OpenApi.Title, "memledger")
  .annotate(OpenApi.Version, VERSION)
  .annotate(OpenApi.Description, "Memory for coding agents, kept as an append-only event log. Errors are {error, message, status}.")
  .annotate(OpenApi.Transform, (spec) => documentTheGuard(spec as OpenApi.OpenAPISpec))

/**
 * What the server in front of the API does, which HttpApi cannot see (src/adapters/http/guard.ts,
 * json-body.ts, web-bridge.ts): the bearer token on every operation but GET /health (optional,
 * as the top-level `[{bearer: []}, {}]` says, when a loopback server runs without one), and the
 * refusals of a body before any decoding, 413 too large and 415 not JSON. HttpApi writes
 * `security: []` ("no auth") on each operation, which would override the top level; so each
 * operation but /health drops its own and inherits it.
 */
const documentTheGuard = (spec: OpenApi.OpenAPISpec): Record<string, unknown> => {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [path, item] of Object.entries(spec.paths)) {
    const methods: Record<string, unknown> = {}
    for (const [method, operation] of Object.entries(item) as Array<[string, OpenApi.OpenAPISpecOperation]>) {
      const { security, responses, ...rest } = operation
      if (path === "/health") {
        const { 401: _unauthorized, ...open } = responses
        methods[method] = { ...rest, security, responses: open }
      } else {
        methods[method] = { ...rest, responses: rest.requestBody === undefined ? responses : { ...responses, ...BODY_REFUSALS } }
      }
    }
    paths[path] = methods
  }
  return {
    ...spec,
    paths,
    components: { ...spec.components, securitySchemes: { ...spec.components.securitySchemes, bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }, {}]
  }
}

const refusal = (status: number, description: string) => {
  const { $schema: _, ...schema } = JSONSchema.make(Schema.Struct({ ...errorFields, status: Schema.Literal(status) }))
  return { description, content: { "application/json": { schema } } }
}

const BODY_REFUSALS = {
  413: refusal(413, "PayloadTooLarge: the body is over the server's limit (1 MiB)"),
  415: refusal(415, "UnsupportedMediaType: the body's Content-Type is not application/json")
}

/**
 * Headers that say who is calling: the conversation and client a write is recorded under, and
 * the current project. Clients set them once; a call's own `origin` field wins.
 */
export const CALLER_HEADERS = { origin: "x-memledger-origin", agent: "x-memledger-agent", project: "x-memledger-project" } as const
