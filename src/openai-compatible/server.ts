/**
 * What every client of an OpenAI-compatible server shares (Ollama, LM Studio, llama.cpp's
 * server, vLLM, OpenAI itself): where an endpoint is, whatever form of the base URL a person
 * gives, and how to speak of the server and its failures without printing a credential.
 */

/** `{url}/v1/{path}`, without doubling a `/v1` or a `/{path}` the URL already ends with. */
export const openAiEndpoint = (url: string, path: string): string => {
  const base = url.trim().replace(/\/+$/, "")
  if (base.endsWith(`/${path}`)) return base
  if (/\/v1$/.test(base)) return `${base}/${path}`
  return `${base}/v1/${path}`
}

export const isHttpUrl = (value: string): boolean => {
  try {
    const parsed = new URL(value)
    return parsed.protocol === "http:" || parsed.protocol === "https:"
  } catch {
    return false
  }
}

/** The URL as it may be printed: credentials a URL may carry are never shown. */
export const shownUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.username || parsed.password) {
      parsed.username = "***"
      parsed.password = ""
    }
    return parsed.toString()
  } catch {
    return url
  }
}

/** A failed fetch in words: Node's `fetch failed` says nothing without its cause (ECONNREFUSED...). */
export const fetchFailure = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const cause = (error as Error & { cause?: unknown }).cause
  return cause instanceof Error ? `${error.message} (${cause.message})` : error.message
}

/** The start of an answer's body, on one line, to quote in a message: `: ...`, or nothing. */
export const answerExcerpt = (body: string): string => {
  const text = body.trim().replace(/\s+/g, " ")
  return text.length === 0 ? "" : `: ${text.length > 200 ? `${text.slice(0, 200)}...` : text}`
}
