/**
 * Which embedder to use, read from the environment (parse at the edge, trust inside):
 *
 *   MEMLEDGER_EMBEDDER             none | local | http       (default: none, keyword search only)
 *   MEMLEDGER_EMBEDDER_MODEL       http: the model name sent to the server (required);
 *                                  local: a folder holding a USE-lite TF.js model (optional)
 *   MEMLEDGER_EMBEDDER_URL         http: the server's base URL, e.g. http://127.0.0.1:11434 (required)
 *   MEMLEDGER_EMBEDDER_KEY         http: a bearer token (optional)
 *   MEMLEDGER_EMBEDDER_TIMEOUT_MS  http: per-request timeout (optional, default 30000)
 */
import { Either } from "effect"
import { EmbedderConfigInvalid } from "./errors.js"
import { isHttpUrl } from "../openai-compatible/server.js"

export const EMBEDDER_PROVIDERS = ["none", "local", "http"] as const
export type EmbedderProvider = (typeof EMBEDDER_PROVIDERS)[number]

export interface EmbedderConfig {
  readonly provider: EmbedderProvider
  /** http: the model name; local: a model folder (model.json + vocab.json) instead of the packaged one. */
  readonly model?: string
  /** http: base URL; `/v1/embeddings` is appended unless the URL already ends with it (or with `/v1`). */
  readonly url?: string
  /** http: sent as `Authorization: Bearer <apiKey>`. */
  readonly apiKey?: string
  /** http: per-request timeout in milliseconds. */
  readonly timeoutMs?: number
}

/** With nothing configured, memledger searches by keyword only. */
export const DEFAULT_PROVIDER: EmbedderProvider = "none"

export const ENV = {
  provider: "MEMLEDGER_EMBEDDER",
  model: "MEMLEDGER_EMBEDDER_MODEL",
  url: "MEMLEDGER_EMBEDDER_URL",
  apiKey: "MEMLEDGER_EMBEDDER_KEY",
  timeoutMs: "MEMLEDGER_EMBEDDER_TIMEOUT_MS"
} as const

export const readEmbedderConfig = (
  env: Readonly<Record<string, string | undefined>> = process.env
): Either.Either<EmbedderConfig, EmbedderConfigInvalid> => {
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim()
    return value === undefined || value.length === 0 ? undefined : value
  }
  const invalid = (variable: string, reason: string) =>
    Either.left(new EmbedderConfigInvalid({ variable, value: env[variable] ?? "", reason }))

  const rawProvider = get(ENV.provider)?.toLowerCase() ?? DEFAULT_PROVIDER
  if (!isProvider(rawProvider)) return invalid(ENV.provider, `use one of: ${EMBEDDER_PROVIDERS.join(", ")}`)
  const model = get(ENV.model)
  if (rawProvider === "none") return Either.right({ provider: "none" })
  if (rawProvider === "local") return Either.right(model === undefined ? { provider: "local" } : { provider: "local", model })

  const url = get(ENV.url)
  if (url === undefined) return invalid(ENV.url, "the http embedder needs a base URL, e.g. http://127.0.0.1:11434 for Ollama or http://127.0.0.1:1234 for LM Studio")
  if (!isHttpUrl(url)) return invalid(ENV.url, "not an http:// or https:// URL")
  if (model === undefined) return invalid(ENV.model, "the http embedder needs a model name, e.g. nomic-embed-text")
  const rawTimeout = get(ENV.timeoutMs)
  const timeoutMs = rawTimeout === undefined ? undefined : Number(rawTimeout)
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) return invalid(ENV.timeoutMs, "a whole number of milliseconds above 0")
  const apiKey = get(ENV.apiKey)
  return Either.right({
    provider: "http",
    url,
    model,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(timeoutMs === undefined ? {} : { timeoutMs })
  })
}

const isProvider = (value: string): value is EmbedderProvider => (EMBEDDER_PROVIDERS as ReadonlyArray<string>).includes(value)
