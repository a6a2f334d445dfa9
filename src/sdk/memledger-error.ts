/**
 * How every SDK failure arrives: a rejected promise with a `MemledgerError` whose `tag` is the
 * same name the CLI, REST and MCP report (MemoryNotFound, InvalidContent, ServiceUnavailable,
 * ...), so code can branch on it without parsing messages.
 */
import { Cause, Option } from "effect"

export class MemledgerError extends Error {
  override readonly name = "MemledgerError"
  constructor(
    readonly tag: string,
    message: string
  ) {
    super(message)
  }
}

/** The error a failed call rejects with: its typed failure, or an internal error for a defect. */
export const fromCause = (cause: Cause.Cause<{ readonly _tag: string; readonly message: string }>): MemledgerError =>
  Option.match(Cause.failureOption(cause), {
    onSome: (failure) => new MemledgerError(failure._tag, failure.message),
    onNone: () => new MemledgerError(Cause.isInterruptedOnly(cause) ? "Interrupted" : "InternalError", Cause.pretty(cause))
  })
