/**
 * When the configured embedder fails, search goes on by keyword. The person is told once per
 * process and provider, not on every query; choosing `none` is not a failure and says nothing.
 */
import type { EmbedderUnavailable } from "./errors.js"

/** The warning text for a fallback to keyword search, or undefined when there is nothing to warn about. */
export const fallbackWarning = (error: EmbedderUnavailable): string | undefined =>
  error.provider === "none"
    ? undefined
    : `warning: ${error.message}. Searching by keyword only until it works again ` +
      `(set MEMLEDGER_EMBEDDER=none to choose keyword search and silence this warning).`

/** A notice that returns the warning the first time a provider fails, and undefined after. */
export const makeFallbackNotice = (): ((error: EmbedderUnavailable) => string | undefined) => {
  const warned = new Set<string>()
  return (error) => {
    const text = fallbackWarning(error)
    if (text === undefined || warned.has(error.provider)) return undefined
    warned.add(error.provider)
    return text
  }
}
