/**
 * The REST endpoints answered straight on node:http, without the web `Request`/`Response`
 * bridge and the HttpApi router: that path cost more CPU per request than a search's own HTTP
 * work (docs/benchmarks.md, "HTTP search throughput"). Everything is derived from `MemledgerApi`
 * by reflection: each endpoint's method and path, its path, payload and query schemas (the
 * same decoders HttpApi builds), its success schema and status; and each endpoint calls what
 * `ENDPOINT_CALLS` says, as the HttpApi handlers do. So the answers are the same, byte for byte
 * (test/http/json-routes.test.ts compares the two paths).
 *
 * A request is claimed only when it is plainly one endpoint's: the exact method (HEAD is not
 * GET here) and a path whose segments need no percent-decoding. The server has already refused
 * bodies that are not JSON or nest too deep (json-body.ts). Anything else (HEAD, unknown paths,
 * the OpenAPI document) still goes through HttpApi, whose answers stay the reference.
 */
import { HttpApi, HttpApiSchema, HttpMethod, HttpServerRequest } from "@effect/platform"
import { Cause, Effect, Either, Exit, Option, ParseResult, Schema } from "effect"
import { toApiError } from "../../api/error-status.js"
import { MemledgerApi } from "../../api/http-api.js"
import type { Person } from "../../domain/person.js"
import type { OperationError, OperationsApi } from "../../api/operations.js"
import { nestsDeeperThan } from "../../api/json-depth.js"
import { decodeFailureBody } from "./error-bodies.js"
import { parseJsonBody, tooDeepBody } from "./json-body.js"
import { errorBody, internalErrorBody, notJsonBody, type ErrorBody } from "./json-error.js"
import { callerFromHeaders, ENDPOINT_CALLS } from "./rest-handlers.js"

/** A JSON answer: its status and its body, already serialised. */
export interface JsonAnswer {
  readonly status: number
  readonly body: string
}

export interface JsonRequest {
  readonly body: Buffer | undefined
  readonly url: URL
  readonly header: (name: string) => string | undefined
  /** Who the server found is calling (identify.ts); undefined without a token. */
  readonly person?: Person | undefined
}

/** One endpoint, matched: answers the request it matched. Never rejects. */
export type JsonEndpoint = (request: JsonRequest) => Promise<JsonAnswer>

export interface JsonRoutes {
  /** The endpoint that plainly answers this request, or undefined to leave it to HttpApi. */
  readonly find: (method: string, pathname: string) => JsonEndpoint | undefined
}

export const makeJsonRoutes = (operations: OperationsApi, log: (line: string) => void): JsonRoutes => {
  const routes = endpointRoutes(operations, log)
  return {
    find: (method, pathname) => {
      const segments = pathname.split("/")
      for (const route of routes) {
        if (route.method !== method) continue
        const params = route.match(segments)
        if (params === undefined) continue
        return (request) => route.answer(params, request, method, pathname)
      }
      return undefined
    }
  }
}

interface Route {
  readonly method: string
  readonly match: (segments: ReadonlyArray<string>) => Record<string, string> | undefined
  readonly answer: (params: Record<string, string>, request: JsonRequest, method: string, pathname: string) => Promise<JsonAnswer>
}

type LooseCall = (request: Record<string, unknown>, operations: OperationsApi, caller: ReturnType<typeof callerFromHeaders>) => Effect.Effect<unknown, OperationError>
type Decoder = (input: unknown) => Either.Either<unknown, ParseResult.ParseError>

const endpointRoutes = (operations: OperationsApi, log: (line: string) => void): Route[] => {
  const routes: Route[] = []
  HttpApi.reflect(MemledgerApi, {
    onGroup: () => undefined,
    onEndpoint: ({ group, endpoint, successes }) => {
      const calls = ENDPOINT_CALLS[group.identifier as keyof typeof ENDPOINT_CALLS] as unknown as Record<string, LooseCall> | undefined
      const call = calls?.[endpoint.name]
      const success = endpoint.successSchema
      const [status, ...otherStatuses] = successes.keys()
      // An endpoint this file cannot answer as HttpApi would stays with HttpApi.
      if (call === undefined || status === undefined || otherStatuses.length > 0) return
      if (HttpApiSchema.isVoid(success.ast) || HttpApiSchema.getEncoding(success.ast).kind !== "Json") return
      const decodePayload = decoder(endpoint.payloadSchema)
      if (decodePayload !== undefined && !HttpMethod.hasBody(endpoint.method)) return
      const decodePath = decoder(endpoint.pathSchema)
      const decodeUrlParams = decoder(endpoint.urlParamsSchema)
      const encode = Schema.encodeUnknownEither(success as Schema.Schema<unknown, unknown, never>)
      const pattern = endpoint.path.split("/")
      routes.push({
        method: endpoint.method,
        match: (segments) => matchPath(pattern, segments),
        answer: async (params, request, method, pathname) => {
          const decoded: Record<string, unknown> = {}
          // In HttpApi's order: path, then payload, then query parameters.
          if (decodePath !== undefined) {
            const path = decodePath(params)
            if (Either.isLeft(path)) return invalid(path.left, params)
            decoded["path"] = path.right
          }
          if (decodePayload !== undefined) {
            const json = parseJsonBody(request.body)
            if (Option.isNone(json)) return answer(notJsonBody())
            if (nestsDeeperThan(json.value)) return answer(tooDeepBody())
            const payload = decodePayload(json.value)
            if (Either.isLeft(payload)) return invalid(payload.left, json.value)
            decoded["payload"] = payload.right
          }
          if (decodeUrlParams !== undefined) {
            const query = HttpServerRequest.searchParamsFromURL(request.url)
            const urlParams = decodeUrlParams(query)
            if (Either.isLeft(urlParams)) return invalid(urlParams.left, query)
            decoded["urlParams"] = urlParams.right
          }
          const exit = await Effect.runPromiseExit(call(decoded, operations, callerFromHeaders(request.header, request.person)))
          if (Exit.isFailure(exit)) {
            const failure = Cause.failureOption(exit.cause)
            if (Option.isSome(failure)) return answer(errorOf(failure.value))
            // The defect itself is on the log already (log-defects.ts wraps every operation).
            log(`${method} ${pathname} answered 500: ${Cause.pretty(exit.cause).slice(0, 500)}`)
            return answer(internalErrorBody())
          }
          const encoded = encode(exit.value)
          if (Either.isLeft(encoded)) {
            log(`${method} ${pathname}: the answer does not match its schema: ${encoded.left.message.slice(0, 500)}`)
            return answer(internalErrorBody())
          }
          return { status, body: JSON.stringify(encoded.right) }
        }
      })
    }
  })
  return routes
}

const decoder = <A, I, R>(schema: Option.Option<Schema.Schema<A, I, R>>): Decoder | undefined =>
  Option.isSome(schema) ? Schema.decodeUnknownEither(schema.value as Schema.Schema<A, I, never>) : undefined

/** `/memories/:id/forget` against the request's segments; a parameter must need no decoding. */
const matchPath = (pattern: ReadonlyArray<string>, segments: ReadonlyArray<string>): Record<string, string> | undefined => {
  if (pattern.length !== segments.length) return undefined
  let params: Record<string, string> | undefined
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i]!
    const actual = segments[i]!
    if (expected.startsWith(":")) {
      if (actual.length === 0 || actual.includes("%")) return undefined
      ;(params ??= {})[expected.slice(1)] = actual
    } else if (expected !== actual) return undefined
  }
  return params ?? {}
}

const invalid = (error: ParseResult.ParseError, input: unknown): JsonAnswer => answer(decodeFailureBody(ParseResult.ArrayFormatter.formatErrorSync(error), input))

const errorOf = (error: OperationError): ErrorBody => {
  const api = toApiError(error)
  return errorBody(api.status, api.error, api.message)
}

const answer = (body: ErrorBody): JsonAnswer => ({ status: body.status, body: JSON.stringify(body) })
