/**
 * The console's one way to the server: every call is a `fetch` to the REST API of the server
 * that served the page, with the bearer token the person typed (kept in sessionStorage, so it
 * lasts as long as the tab). A 401 is reported to whoever listens (the token form), never
 * swallowed. The live log is a streamed `fetch` of NDJSON, since EventSource cannot send the
 * Authorization header.
 */
import type { ExportedEvent } from "../events/export-line.js"

const TOKEN_KEY = "memledger-token"

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string
  ) {
    super(message)
  }
}

let token: string | null = sessionStorage.getItem(TOKEN_KEY)
const unauthorizedListeners = new Set<(error: ApiError) => void>()

export const currentToken = (): string | null => token

export const setToken = (value: string): void => {
  token = value
  sessionStorage.setItem(TOKEN_KEY, value)
}

/** Called with each 401 the server answers, so the page can ask for the token. */
export const onUnauthorized = (listener: (error: ApiError) => void): (() => void) => {
  unauthorizedListeners.add(listener)
  return () => unauthorizedListeners.delete(listener)
}

const headers = (json: boolean): Record<string, string> => ({
  ...(json ? { "content-type": "application/json" } : {}),
  ...(token === null ? {} : { authorization: `Bearer ${token}` })
})

/** A query string from the defined values; arrays repeat their parameter. */
export const query = (params: Record<string, string | number | boolean | ReadonlyArray<string> | undefined>): string => {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === "") continue
    if (Array.isArray(value)) for (const item of value) search.append(name, item)
    else search.append(name, String(value))
  }
  const text = search.toString()
  return text === "" ? "" : `?${text}`
}

export const call = async <A>(method: "GET" | "POST" | "PATCH", path: string, body?: unknown): Promise<A> => {
  const response = await fetch(path, {
    method,
    headers: headers(body !== undefined),
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  const json = text === "" ? undefined : (JSON.parse(text) as unknown)
  if (response.ok) return json as A
  const failure = (json ?? {}) as { error?: string; message?: string }
  const error = new ApiError(response.status, failure.error ?? `HTTP ${response.status}`, failure.message ?? response.statusText)
  if (response.status === 401) for (const listener of unauthorizedListeners) listener(error)
  throw error
}

export const get = <A>(path: string): Promise<A> => call<A>("GET", path)
export const post = <A>(path: string, body: unknown = {}): Promise<A> => call<A>("POST", path, body)
export const patch = <A>(path: string, body: unknown): Promise<A> => call<A>("PATCH", path, body)

/**
 * Follows the log from `after` on: each event is handed to `onEvent` as its line arrives. Resolves
 * when `signal` aborts; rejects when the stream fails (the caller shows it and may follow again).
 */
export const follow = async (after: number, onEvent: (event: ExportedEvent) => void, signal: AbortSignal): Promise<void> => {
  const response = await fetch(`/events/live${query({ after })}`, { headers: headers(false), signal })
  if (!response.ok || response.body === null) {
    const error = new ApiError(response.status, "LiveFailed", `the live log answered ${response.status}`)
    if (response.status === 401) for (const listener of unauthorizedListeners) listener(error)
    throw error
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let pending = ""
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      pending += value
      const lines = pending.split("\n")
      pending = lines.pop() ?? ""
      for (const line of lines) if (line.trim() !== "") onEvent(JSON.parse(line) as ExportedEvent)
    }
  } catch (error) {
    if (signal.aborted) return
    throw error
  }
}
