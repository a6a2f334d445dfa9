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

export const errorResponse = (body: ErrorBody, headers: Record<string, string> = {}): Response => {
  const text = JSON.stringify(body)
  return new Response(text, {
    status: body.status,
    headers: { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) }
  })
}
