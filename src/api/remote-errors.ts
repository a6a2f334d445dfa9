/**
 * What a failed HTTP call to `mem serve` means to the caller, as a `RemoteError` with the tag
 * and message the server's own error had, so the CLI and the MCP server report a remote
 * `MemoryNotFound` exactly as a local one. Failures that never reached memledger say what to
 * check: the server is down, the URL is wrong, or the token is missing.
 */
import { HttpClientError } from "@effect/platform"
import { Effect, ParseResult } from "effect"
import { RemoteError } from "./operations.js"

/**
 * Turns anything a remote call can fail with into a `RemoteError`. Error answers arrive as a
 * `ResponseError` (the client filters non-2xx statuses before any decoding) whose body is read
 * here; an error already decoded into one of the API's error classes carries the same fields.
 */
export const toRemoteError =
  (url: string) =>
  (error: unknown): Effect.Effect<never, RemoteError> => {
    if (error instanceof RemoteError) return Effect.fail(error)
    if (ParseResult.isParseError(error)) return Effect.fail(unreadableAnswer(url, error))
    if (!HttpClientError.isHttpClientError(error)) {
      const status = (error as { status?: unknown } | null)?.status
      return Effect.fail(fromErrorBody(url, typeof status === "number" ? status : 500, error))
    }
    if (error._tag === "RequestError") return Effect.fail(requestFailed(url, error))
    if (error.reason !== "StatusCode") return Effect.fail(new RemoteError("InvalidResponse", `memledger at ${url} sent an answer this client cannot read`))
    return error.response.json.pipe(
      Effect.orElseSucceed(() => undefined),
      Effect.flatMap((body) => Effect.fail(fromErrorBody(url, error.response.status, body)))
    )
  }

/** The refusal a server sent as `{error, message}`; a 401 also says where the token goes. */
export const fromErrorBody = (url: string, status: number, body: unknown): RemoteError => {
  const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
  const message = typeof fields.message === "string" ? fields.message : undefined
  if (status === 401) {
    return new RemoteError(
      "Unauthorized",
      `memledger at ${url} refused the request${message ? ` (${message})` : ""}; set MEMLEDGER_TOKEN (or the SDK's token option) to the server's token`
    )
  }
  // The server's schema refused the input before any operation ran.
  if (fields._tag === "HttpApiDecodeError") return new RemoteError("InvalidInput", message ?? "the server refused the input")
  if (typeof fields.error === "string" && message !== undefined) return new RemoteError(fields.error, message)
  return new RemoteError("ServiceUnavailable", `memledger at ${url} answered ${status} without saying why; is MEMLEDGER_URL the address of 'mem serve'?`)
}

export const unreachable = (url: string, why: string): RemoteError =>
  new RemoteError("ServiceUnavailable", `cannot reach memledger at ${url} (${why}); is 'mem serve' running there?`)

const requestFailed = (url: string, error: HttpClientError.RequestError): RemoteError => {
  if (error.reason === "InvalidUrl") return new RemoteError("InvalidConfig", `'${url}' is not a URL memledger can call`)
  if (error.reason === "Encode") return new RemoteError("InvalidInput", `the request could not be encoded: ${error.message}`)
  return unreachable(url, transportReason(error.cause))
}

/** fetch wraps the socket's error: "fetch failed" with the code (ECONNREFUSED, ENOTFOUND) inside. */
const transportReason = (cause: unknown): string => {
  const inner = (cause as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause
  if (typeof inner?.code === "string") return inner.code
  if (typeof inner?.message === "string") return inner.message
  return cause instanceof Error ? cause.message : "no connection"
}

const unreadableAnswer = (url: string, error: ParseResult.ParseError): RemoteError =>
  new RemoteError(
    "InvalidResponse",
    `memledger at ${url} sent an answer this client cannot read (${ParseResult.TreeFormatter.formatErrorSync(error).split("\n")[0]}); are the server and this client the same memledger version?`
  )
