/**
 * Whether a language model reads sessions for memories (docs/capture.md, "Extraction by a
 * language model"), read from the environment (parse at the edge, trust inside):
 *
 *   MEMLEDGER_LLM_URL         an OpenAI-compatible server, with or without `/v1`
 *                             (http://127.0.0.1:11434 for Ollama, https://api.openai.com)
 *   MEMLEDGER_LLM_MODEL       the model name sent to it
 *   MEMLEDGER_LLM_KEY         a bearer token (optional; never printed)
 *   MEMLEDGER_LLM_TIMEOUT_MS  how long one extraction may take (optional, default 60000)
 *
 * Off unless both the URL and the model are set: a session's text leaves the machine only when
 * a person asked for it.
 */
import { isHttpUrl } from "../../openai-compatible/server.js"
import type { CaptureMode } from "../capture-settings.js"

export interface LlmConfig {
  readonly url: string
  readonly model: string
  readonly key?: string
  readonly timeoutMs: number
}

export type LlmSetting =
  | { readonly _tag: "Off" }
  | { readonly _tag: "Invalid"; readonly problem: string }
  | { readonly _tag: "On"; readonly config: LlmConfig }

export const LLM_ENV = {
  url: "MEMLEDGER_LLM_URL",
  model: "MEMLEDGER_LLM_MODEL",
  key: "MEMLEDGER_LLM_KEY",
  timeoutMs: "MEMLEDGER_LLM_TIMEOUT_MS"
} as const

/** A local model may take a while over a long part; a hung server must not keep a process forever. */
export const DEFAULT_LLM_TIMEOUT_MS = 60_000

export const readLlmSetting = (env: Readonly<Record<string, string | undefined>> = process.env): LlmSetting => {
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim()
    return value === undefined || value.length === 0 ? undefined : value
  }
  const url = get(LLM_ENV.url)
  const model = get(LLM_ENV.model)
  if (url === undefined && model === undefined) return { _tag: "Off" }
  const invalid = (problem: string): LlmSetting => ({ _tag: "Invalid", problem })
  if (url === undefined) return invalid(`${LLM_ENV.model} is set but ${LLM_ENV.url} is not: set both, or neither`)
  if (model === undefined) return invalid(`${LLM_ENV.url} is set but ${LLM_ENV.model} is not: set both, or neither`)
  if (!isHttpUrl(url)) return invalid(`${LLM_ENV.url} is not an http:// or https:// URL`)
  const rawTimeout = get(LLM_ENV.timeoutMs)
  const timeoutMs = rawTimeout === undefined ? DEFAULT_LLM_TIMEOUT_MS : Number(rawTimeout)
  if (!(Number.isInteger(timeoutMs) && timeoutMs > 0)) return invalid(`${LLM_ENV.timeoutMs} is not a whole number of milliseconds above 0`)
  const key = get(LLM_ENV.key)
  return { _tag: "On", config: { url, model, timeoutMs, ...(key === undefined ? {} : { key }) } }
}

/** Where the model runs, as `mem doctor` shows it: the host only, never a path, a credential or the key. */
export const llmPlace = (config: LlmConfig): string => `${config.model} at ${new URL(config.url).host}`

/** The end of `mem doctor`'s capture line. `mode`: the store's capture setting, which extraction needs to be `on`. */
export const extractionSummary = (setting: LlmSetting, mode: CaptureMode): string => {
  const said = "extraction by a language model"
  if (setting._tag === "Off") return `${said}: off (set ${LLM_ENV.url} and ${LLM_ENV.model} to turn it on)`
  if (setting._tag === "Invalid") return `${said}: off (${setting.problem})`
  if (mode !== "on") return `${said}: off for this store, where capture is not on (${llmPlace(setting.config)})`
  return `${said}: on (${llmPlace(setting.config)})`
}
