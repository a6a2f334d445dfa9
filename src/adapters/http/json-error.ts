/**
 * The one error body every response of `mem serve` uses, whoever produced it (the guard, the
 * bridge, the REST handlers): `{error, message, status}`, as `http-api.ts` declares it.
 */
export interface ErrorBody {
  readonly error: string
  readonly message: string
  readonly status: number
}

export const errorBody = (status: number, error: string, message: string): ErrorBody => ({ error, message, status })

/** A failure the client cannot fix; what went wrong is on the server's log. */
export const internalErrorBody = (): ErrorBody => errorBody(500, "InternalError", "the server failed while answering; the cause is in its log")

export const notJsonBody = (): ErrorBody =>
  errorBody(400, "InvalidInput", "the request body is not valid JSON (or not JSON at all); send Content-Type: application/json")

export const errorResponse = (body: ErrorBody, headers: Record<string, string> = {}): Response => {
  const text = JSON.stringify(body)
  return new Response(text, {
    status: body.status,
    headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) }
  })
}
