/**
 * A defect inside an operation (a bug, never bad input) reaches the client as a bare 500 from
 * @effect/platform, which logs nothing. Wrapping each operation puts the cause on stderr, where
 * whoever runs `mem serve` looks; the client still gets only `{error: "InternalError"}`.
 */
import { Cause, Effect } from "effect"
import type { OperationsApi } from "../../api/operations.js"

export const logDefects = (operations: OperationsApi, log: (line: string) => void): OperationsApi => {
  const wrapped: Record<string, unknown> = {}
  for (const [name, operation] of Object.entries(operations) as [string, (input: unknown, caller: unknown) => Effect.Effect<unknown, unknown>][]) {
    wrapped[name] = (input: unknown, caller: unknown) =>
      Effect.tapDefect(operation(input, caller), (cause) => Effect.sync(() => log(`internal error in ${name}: ${Cause.pretty(cause)}`)))
  }
  return wrapped as unknown as OperationsApi
}
