/**
 * The REST handlers: each endpoint of `MemledgerApi` calls one `Operations` method with the
 * caller taken from the request headers, and turns a failure into `{error, message}` with the
 * status `error-status.ts` gives it. Nothing is decided here.
 *
 * What each endpoint calls is one table, `ENDPOINT_CALLS`, shared by the HttpApi handlers below
 * and the direct JSON routes (json-routes.ts), so the two ways in cannot call different things.
 */
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse, type HttpApiEndpoint, type HttpApiGroup } from "@effect/platform"
import { Effect, Layer } from "effect"
import { toApiError } from "../../api/error-status.js"
import { CALLER_HEADERS, MemledgerApi, type conversationsGroup, type memoriesGroup, type outcomesGroup, type recallGroup, type systemGroup } from "../../api/http-api.js"
import { Operations, type Caller, type OperationError, type OperationsApi } from "../../api/operations.js"
import { MAX_AGENT_LENGTH, MAX_ORIGIN_LENGTH, MAX_PROJECT_LENGTH } from "../../domain/vocabulary.js"
import { REST_WRITER } from "../../domain/vouching.js"
import { Console } from "../../services/console.js"
import { VERSION } from "../../version.js"
import { eventLines } from "./event-lines.js"
import { decodePerson, PERSON_HEADER } from "./person-header.js"
import type { Person } from "../../domain/person.js"

/** An endpoint's decoded path, payload and query parameters, as HttpApi hands them to a handler. */
export type EndpointRequest<E extends HttpApiEndpoint.HttpApiEndpoint.Any> = Omit<HttpApiEndpoint.HttpApiEndpoint.Request<E>, "request">

/** One endpoint's call: an `Operations` method for the decoded request and its caller. */
export type EndpointCall<E extends HttpApiEndpoint.HttpApiEndpoint.Any> = (
  request: EndpointRequest<E>,
  operations: OperationsApi,
  caller: Caller
) => Effect.Effect<HttpApiEndpoint.HttpApiEndpoint.Success<E>, OperationError>

type GroupCalls<G extends HttpApiGroup.HttpApiGroup.Any> = {
  readonly [E in HttpApiGroup.HttpApiGroup.Endpoints<G> as E["name"]]: EndpointCall<E>
}

const memoriesCalls: GroupCalls<typeof memoriesGroup> = {
  remember: (r, o, c) => o.remember(r.payload, c),
  list: (r, o, c) => o.list(r.urlParams, c),
  review: (r, o, c) => o.review(r.payload, c),
  get: (r, o, c) => o.getMemory(r.path, c),
  edit: (r, o, c) => o.edit({ ...r.payload, id: r.path.id }, c),
  forget: (r, o, c) => o.forget({ ...r.payload, memory_id: r.path.id }, c),
  restore: (r, o, c) => o.restore({ ...r.payload, memory_id: r.path.id }, c),
  confirm: (r, o, c) => o.confirm({ ...r.payload, id: r.path.id }, c),
  supersede: (r, o, c) => o.supersede({ ...r.payload, id: r.path.id }, c),
  record: (r, o, c) => o.record(r.path, c),
  cues: (r, o, c) => o.cues(r.path, c),
  dropCue: (r, o, c) => o.dropCue({ ...r.payload, id: r.path.id }, c)
}

const recallCalls: GroupCalls<typeof recallGroup> = {
  search: (r, o, c) => o.recall(r.payload, c),
  why: (r, o, c) => o.explain(r.payload, c),
  context: (r, o, c) => o.getContext(r.payload, c)
}

const outcomesCalls: GroupCalls<typeof outcomesGroup> = { record: (r, o, c) => o.recordOutcome(r.payload, c) }

const conversationsCalls: GroupCalls<typeof conversationsGroup> = {
  list: (_, o, c) => o.conversations({}, c),
  forget: (r, o, c) => o.forgetConversation({ origin: r.payload.origin }, c),
  restore: (r, o, c) => o.forgetConversation({ origin: r.payload.origin, undo: true }, c)
}

const systemCalls: GroupCalls<typeof systemGroup> = {
  stats: (_, o, c) => o.stats({}, c),
  events: (r, o, c) => o.log(r.urlParams, c),
  health: () => Effect.succeed({ ok: true as const, version: VERSION }),
  overview: (_, o, c) => o.overview({}, c),
  tasks: (r, o, c) => o.tasks(r.urlParams, c),
  purge: (r, o, c) => o.purge(r.payload, c)
}

/** Every endpoint's call by group and endpoint name, as `MemledgerApi` names them. */
export const ENDPOINT_CALLS = {
  memories: memoriesCalls,
  recall: recallCalls,
  outcomes: outcomesCalls,
  conversations: conversationsCalls,
  system: systemCalls
} as const

/**
 * The longest value each caller header may have: the limits of what they stand for (a body's
 * `origin` and `project`, the event envelope's `agent`, vocabulary.ts). A longer one is refused
 * (`callerHeaderProblem`) rather than ignored, which would record the write under "rest" or as
 * global without a word.
 */
const CALLER_HEADER_LIMITS = {
  [CALLER_HEADERS.origin]: MAX_ORIGIN_LENGTH,
  [CALLER_HEADERS.agent]: MAX_AGENT_LENGTH,
  [CALLER_HEADERS.project]: MAX_PROJECT_LENGTH
} as const

/** What is wrong with the caller headers, naming the header; undefined when they are usable. */
export const callerHeaderProblem = (header: (name: string) => string | undefined): string | undefined => {
  for (const [name, limit] of Object.entries(CALLER_HEADER_LIMITS)) {
    const length = header(name)?.length ?? 0
    if (length > limit) return `the header ${name} is ${length} characters long; it may have at most ${limit}`
  }
  return undefined
}

/**
 * Who is calling, from the x-memledger-* headers and the person the server found the token to
 * be (identify.ts); REST callers default to origin and agent "rest", which is a person for the
 * rules (domain/vouching.ts) unless the token is an agent's.
 */
export const callerFromHeaders = (header: (name: string) => string | undefined, person?: Person): Caller => {
  // Empty means absent; over-long values never get here (the server refuses them first).
  const usable = (name: string) => {
    const value = header(name)
    return value !== undefined && value.length > 0 ? value : undefined
  }
  return {
    origin: usable(CALLER_HEADERS.origin) ?? REST_WRITER,
    agent: usable(CALLER_HEADERS.agent) ?? REST_WRITER,
    project: usable(CALLER_HEADERS.project) ?? null,
    ...(person === undefined ? {} : { person })
  }
}

/** The caller of a request the server bridged to HttpApi, its person in the server's own header (person-header.ts). */
const callerOf = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  callerFromHeaders((name) => request.headers[name], decodePerson(request.headers[PERSON_HEADER]))
)

/** Runs one endpoint's call for the calling client, its errors in REST form. */
const handle =
  <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(call: EndpointCall<E>) =>
  (request: EndpointRequest<E>) =>
    Effect.gen(function* () {
      const operations = yield* Operations
      const caller = yield* callerOf
      return yield* Effect.mapError(call(request, operations, caller), toApiError)
    })

const memories = HttpApiBuilder.group(MemledgerApi, "memories", (h) =>
  h
    .handle("remember", handle(memoriesCalls.remember))
    .handle("list", handle(memoriesCalls.list))
    .handle("review", handle(memoriesCalls.review))
    .handle("get", handle(memoriesCalls.get))
    .handle("edit", handle(memoriesCalls.edit))
    .handle("forget", handle(memoriesCalls.forget))
    .handle("restore", handle(memoriesCalls.restore))
    .handle("confirm", handle(memoriesCalls.confirm))
    .handle("supersede", handle(memoriesCalls.supersede))
    .handle("record", handle(memoriesCalls.record))
    .handle("cues", handle(memoriesCalls.cues))
    .handle("dropCue", handle(memoriesCalls.dropCue))
)

const recall = HttpApiBuilder.group(MemledgerApi, "recall", (h) =>
  h.handle("search", handle(recallCalls.search)).handle("why", handle(recallCalls.why)).handle("context", handle(recallCalls.context))
)

const outcomes = HttpApiBuilder.group(MemledgerApi, "outcomes", (h) => h.handle("record", handle(outcomesCalls.record)))

const conversations = HttpApiBuilder.group(MemledgerApi, "conversations", (h) =>
  h.handle("list", handle(conversationsCalls.list)).handle("forget", handle(conversationsCalls.forget)).handle("restore", handle(conversationsCalls.restore))
)

const system = HttpApiBuilder.group(MemledgerApi, "system", (h) =>
  h
    .handle("stats", handle(systemCalls.stats))
    .handle("events", handle(systemCalls.events))
    .handle("health", handle(systemCalls.health))
    .handle("overview", handle(systemCalls.overview))
    .handle("tasks", handle(systemCalls.tasks))
    .handle("purge", handle(systemCalls.purge))
)

/** The live log: the store's `subscribe` as NDJSON, one event a line, until the client goes. */
const live = HttpApiBuilder.group(MemledgerApi, "live", (h) =>
  h.handle("events", ({ urlParams }) =>
    Effect.gen(function* () {
      const events = yield* Console
      const caller = yield* callerOf
      const after = urlParams.after ?? (yield* events.head)
      // Only what the caller may see: another person's private memory's events never stream.
      return HttpServerResponse.stream(eventLines(events.subscribe(after, caller.person?.name ?? null)), { contentType: "application/x-ndjson" })
    })
  )
)

/** The whole API, needing `Operations` and, for the live log, the store's `Console`. */
export const RestApiLive = HttpApiBuilder.api(MemledgerApi).pipe(Layer.provide([memories, recall, outcomes, conversations, system, live]))
