/**
 * How the MCP adapter runs operations: on one `ManagedRuntime` built from `operationsLayer`, so
 * a server holds one store (or one remote connection) for its whole life, and every surface
 * gets `Operations` from the same place.
 */
import { Cause, Effect, Exit, ManagedRuntime } from "effect"
import { operationsLayer } from "../../api/operations-from-env.js"
import type { OperationError, Operations } from "../../api/operations.js"

/**
 * Runs one operation to its Exit, never rejecting: a failure is data for the caller to report.
 * The error is `unknown` beyond `OperationError` because opening the store can fail too.
 */
export type RunOperation = <A>(effect: Effect.Effect<A, OperationError, Operations>) => Promise<Exit.Exit<A, unknown>>

export interface OperationsRuntime {
  readonly run: RunOperation
  /** Resolves once the store is open; rejects with the reason it cannot be (a DomainError, with its message). */
  readonly ready: () => Promise<void>
  /** Waits for the operations already running, then closes the store. */
  readonly dispose: () => Promise<void>
}

export const operationsRuntime = (dbPath: string): OperationsRuntime => {
  const runtime = ManagedRuntime.make(operationsLayer(dbPath))
  let running = 0
  let idle: (() => void) | undefined
  const run: RunOperation = async (effect) => {
    running++
    try {
      return await runtime.runPromiseExit(effect)
    } finally {
      running--
      if (running === 0) idle?.()
    }
  }
  return {
    run,
    ready: async () => {
      const opened = await Effect.runPromiseExit(runtime.runtimeEffect)
      if (Exit.isFailure(opened)) throw Cause.squash(opened.cause)
    },
    dispose: async () => {
      if (running > 0) await new Promise<void>((resolve) => (idle = resolve))
      await runtime.dispose()
    }
  }
}

/** A `RunOperation` over a runtime someone else owns (`mem serve` shares its runtime with REST). */
export const runOn =
  <E>(runtime: ManagedRuntime.ManagedRuntime<Operations, E>): RunOperation =>
  (effect) =>
    runtime.runPromiseExit(effect)
