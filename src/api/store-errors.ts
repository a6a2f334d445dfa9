/**
 * Operations over a local store, with the store's own failures as typed errors: its driver throws
 * a damaged file, a lock held too long or a full disk from whatever statement meets it, and a
 * write throws LogBroken once verify has found the log broken. Turned into failures here, once,
 * every surface (MCP, REST, the SDK, the CLI) reports them in words, as it reports any error.
 */
import { Effect } from "effect"
import type { StoreError } from "../store/errors.js"
import type { Caller, OperationError, OperationsApi } from "./operations.js"

/** `api` with every store error an operation dies of turned into its failure. */
export const withStoreErrors = (api: OperationsApi, errorOf: (thrown: unknown) => StoreError | undefined): OperationsApi => {
  const typed = <A>(effect: Effect.Effect<A, OperationError>): Effect.Effect<A, OperationError> =>
    Effect.catchAllDefect(effect, (defect) => {
      const error = errorOf(defect)
      return error === undefined ? Effect.die(defect) : Effect.fail(error)
    })
  const wrapped: Record<string, unknown> = {}
  for (const [name, operation] of Object.entries(api) as Array<[string, (input: unknown, caller: Caller) => Effect.Effect<unknown, OperationError>]>) {
    wrapped[name] = (input: unknown, caller: Caller) => typed(operation(input, caller))
  }
  return wrapped as unknown as OperationsApi
}
