/**
 * `Operations` over HTTP against `mem serve`: a client derived from the `MemledgerApi`
 * declaration, so each operation calls exactly the endpoint the server routes to it. Every
 * request carries the bearer token (if any) and the caller as x-memledger-* headers; every
 * failure becomes a `RemoteError` with the server's tag and message (remote-errors.ts).
 */
import { FetchHttpClient, HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Duration, Effect, FiberRef, Layer } from "effect"
import { CALLER_HEADERS, MemledgerApi } from "./http-api.js"
import { Operations, RemoteError, type Caller, type OperationsApi } from "./operations.js"
import { toRemoteError } from "./remote-errors.js"

export interface RemoteConfig {
  /** Where `mem serve` listens, e.g. http://127.0.0.1:7077. */
  readonly url: string
  readonly token?: string | undefined
  /** A call that gets no answer within this long fails as ServiceUnavailable (default 30 s). */
  readonly timeoutMs?: number | undefined
}

const DEFAULT_TIMEOUT_MS = 30_000

/**
 * The caller of the operation being sent. The client is built once, but each call has its own
 * caller, so the request middleware reads it from the calling fiber.
 */
const currentCaller = FiberRef.unsafeMake<Caller | undefined>(undefined)

const callerHeaders = (caller: Caller | undefined): Record<string, string> =>
  caller === undefined
    ? {}
    : {
        [CALLER_HEADERS.origin]: caller.origin,
        [CALLER_HEADERS.agent]: caller.agent,
        ...(caller.project === null ? {} : { [CALLER_HEADERS.project]: caller.project })
      }

export const OperationsRemote = (config: RemoteConfig): Layer.Layer<Operations, RemoteError> =>
  Layer.effect(
    Operations,
    Effect.gen(function* () {
      const url = yield* baseUrlOf(config.url)
      const client = yield* HttpApiClient.make(MemledgerApi, {
        baseUrl: url,
        transformClient: (http) =>
          http.pipe(
            HttpClient.mapRequestEffect((request) =>
              Effect.map(FiberRef.get(currentCaller), (caller) => {
                const withCaller = HttpClientRequest.setHeaders(request, callerHeaders(caller))
                return config.token ? HttpClientRequest.bearerToken(withCaller, config.token) : withCaller
              })
            ),
            // Error answers are read here, from the body `{error, message}`, not decoded per endpoint.
            HttpClient.filterStatusOk
          )
      })
      const timeout = Duration.millis(config.timeoutMs ?? DEFAULT_TIMEOUT_MS)

      const send =
        <I, A, E>(request: (input: I) => Effect.Effect<A, E>) =>
        (input: I, caller: Caller): Effect.Effect<A, RemoteError> =>
          request(input).pipe(
            Effect.locally(currentCaller, caller),
            Effect.timeoutFail({
              duration: timeout,
              onTimeout: () => new RemoteError("ServiceUnavailable", `memledger at ${url} did not answer within ${Duration.format(timeout)}; is 'mem serve' running there?`)
            }),
            Effect.catchAll(toRemoteError(url))
          )

      const api: OperationsApi = {
        remember: send((payload) => client.memories.remember({ payload })),
        recall: send((payload) => client.recall.search({ payload })),
        explain: send((payload) => client.recall.why({ payload })),
        recordOutcome: send((payload) => client.outcomes.record({ payload })),
        forget: send(({ memory_id, ...payload }) => client.memories.forget({ path: { id: memory_id }, payload })),
        restore: send(({ memory_id, ...payload }) => client.memories.restore({ path: { id: memory_id }, payload })),
        forgetConversation: send(({ origin, undo }) =>
          undo ? client.conversations.restore({ payload: { origin } }) : client.conversations.forget({ payload: { origin } })
        ),
        getContext: send((payload) => client.recall.context({ payload })),
        getMemory: send(({ id }) => client.memories.get({ path: { id } })),
        list: send((urlParams) => client.memories.list({ urlParams })),
        review: send((payload) => client.memories.review({ payload })),
        edit: send(({ id, ...payload }) => client.memories.edit({ path: { id }, payload })),
        confirm: send(({ id, ...payload }) => client.memories.confirm({ path: { id }, payload })),
        supersede: send(({ id, ...payload }) => client.memories.supersede({ path: { id }, payload })),
        cues: send(({ id }) => client.memories.cues({ path: { id } })),
        dropCue: send(({ id, ...payload }) => client.memories.dropCue({ path: { id }, payload })),
        conversations: send(() => client.conversations.list()),
        log: send((urlParams) => client.system.events({ urlParams })),
        stats: send(() => client.system.stats()),
        overview: send(() => client.system.overview()),
        record: send(({ id }) => client.memories.record({ path: { id } })),
        tasks: send((urlParams) => client.system.tasks({ urlParams })),
        purge: send((payload) => client.system.purge({ payload }))
      }
      return api
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))

/** The URL without a trailing slash (paths are appended to it), or why it can't be one. */
const baseUrlOf = (raw: unknown): Effect.Effect<string, RemoteError> => {
  // Plain JavaScript may pass anything here, such as an unset environment variable.
  const url = typeof raw === "string" ? raw.trim().replace(/\/+$/, "") : ""
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  return parsed !== undefined && (parsed.protocol === "http:" || parsed.protocol === "https:")
    ? Effect.succeed(url)
    : Effect.fail(new RemoteError("InvalidConfig", `'${String(raw)}' is not an http(s) URL; set MEMLEDGER_URL to where 'mem serve' listens, e.g. http://127.0.0.1:7077`))
}
