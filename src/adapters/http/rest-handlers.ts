/**
 * The REST handlers: each endpoint of `MemledgerApi` calls one `Operations` method with the
 * caller taken from the request headers, and turns a failure into `{error, message}` with the
 * status `error-status.ts` gives it. Nothing is decided here.
 */
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import { Effect, Layer } from "effect"
import { toApiError } from "../../api/error-status.js"
import { CALLER_HEADERS, MemledgerApi } from "../../api/http-api.js"
import { Operations, type Caller, type OperationError, type OperationsApi } from "../../api/operations.js"
import { VERSION } from "../../version.js"

/** Who is calling, from the x-memledger-* headers; REST callers default to origin and agent "rest". */
const callerOf = Effect.map(HttpServerRequest.HttpServerRequest, (request): Caller => {
  const header = (name: string) => {
    const value = request.headers[name]
    return value !== undefined && value.length > 0 && value.length <= 500 ? value : undefined
  }
  return {
    origin: header(CALLER_HEADERS.origin) ?? "rest",
    agent: header(CALLER_HEADERS.agent) ?? "rest",
    project: header(CALLER_HEADERS.project) ?? null
  }
})

type Method = keyof OperationsApi

/** Runs one operation for the calling client, its errors in REST form. */
const call = <K extends Method>(method: K, input: Parameters<OperationsApi[K]>[0]) =>
  Effect.gen(function* () {
    const ops = yield* Operations
    const caller = yield* callerOf
    const run = ops[method] as (i: typeof input, c: Caller) => Effect.Effect<Effect.Effect.Success<ReturnType<OperationsApi[K]>>, OperationError>
    return yield* Effect.mapError(run(input, caller), toApiError)
  })

const memories = HttpApiBuilder.group(MemledgerApi, "memories", (h) =>
  h
    .handle("remember", ({ payload }) => call("remember", payload))
    .handle("list", ({ urlParams }) => call("list", urlParams))
    .handle("get", ({ path }) => call("getMemory", path))
    .handle("edit", ({ path, payload }) => call("edit", { ...payload, id: path.id }))
    .handle("forget", ({ path, payload }) => call("forget", { ...payload, memory_id: path.id }))
    .handle("restore", ({ path, payload }) => call("restore", { ...payload, memory_id: path.id }))
    .handle("confirm", ({ path, payload }) => call("confirm", { ...payload, id: path.id }))
    .handle("supersede", ({ path, payload }) => call("supersede", { ...payload, id: path.id }))
)

const recall = HttpApiBuilder.group(MemledgerApi, "recall", (h) =>
  h
    .handle("search", ({ payload }) => call("recall", payload))
    .handle("why", ({ payload }) => call("explain", payload))
    .handle("context", ({ payload }) => call("getContext", payload))
)

const outcomes = HttpApiBuilder.group(MemledgerApi, "outcomes", (h) => h.handle("record", ({ payload }) => call("recordOutcome", payload)))

const conversations = HttpApiBuilder.group(MemledgerApi, "conversations", (h) =>
  h
    .handle("list", () => call("conversations", {}))
    .handle("forget", ({ payload }) => call("forgetConversation", { origin: payload.origin }))
    .handle("restore", ({ payload }) => call("forgetConversation", { origin: payload.origin, undo: true }))
)

const system = HttpApiBuilder.group(MemledgerApi, "system", (h) =>
  h
    .handle("stats", () => call("stats", {}))
    .handle("events", ({ urlParams }) => call("log", urlParams))
    .handle("health", () => Effect.succeed({ ok: true as const, version: VERSION }))
)

/** The whole API, needing only `Operations`. */
export const RestApiLive = HttpApiBuilder.api(MemledgerApi).pipe(Layer.provide([memories, recall, outcomes, conversations, system]))
