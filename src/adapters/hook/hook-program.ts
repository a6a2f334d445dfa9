/**
 * A hook that reads or writes the store (all but post-tool-use and pre-compact), run over the
 * `Operations` it is given: the store file's (store-hook.ts), a server's (remote-hook.ts), or
 * those of the `mem mcp` process that already holds the store open (relay-server.ts). The first
 * two are bundles of their own, so a hook on a local store never loads the HTTP client.
 */
import { Cause, Duration, Effect, Exit, type Layer } from "effect"
import type { OperationError, Operations } from "../../api/operations.js"
import { runHook, type HookOutput, type HookSetting } from "../../hooks/handlers.js"
import { hookTimeLimitMs, type HookRequest, type StoreHookOutcome } from "../../hooks/hook-request.js"
import { detectProject } from "../../project/identity.js"
import { currentTask } from "../../tasks/find-tasks.js"

/** The hook's program, bounded by the time limit; it needs only `Operations`. */
export const hookProgram = ({ event, agent, input, place, cwd, env }: HookRequest): Effect.Effect<HookOutput | undefined, OperationError | Error, Operations> => {
  const at = input.cwd ?? cwd
  const caller = { origin: `${agent}:session/${place.sessionId}`, agent, project: detectProject(at) }
  const task = currentTask({ cwd: at, env })?.ref
  const setting: HookSetting = { ...place, caller, env, ...(task === undefined ? {} : { task }) }
  const limit = Duration.millis(hookTimeLimitMs(env))
  return runHook(event, { ...input, cwd: at }, setting).pipe(
    Effect.timeoutFail({ duration: limit, onTimeout: () => new Error(`took longer than ${Duration.format(limit)}`) }),
    Effect.scoped
  )
}

/** Its outcome as a hook reports it: the output, or why there is none. */
export const hookOutcomeOf = (exit: Exit.Exit<HookOutput | undefined, unknown>): StoreHookOutcome =>
  Exit.isFailure(exit) ? { failure: Cause.pretty(exit.cause) } : { output: exit.value }

export const runHookOver = async <E>(operations: Layer.Layer<Operations, E>, request: HookRequest): Promise<StoreHookOutcome> =>
  hookOutcomeOf(await Effect.runPromiseExit(Effect.provide(hookProgram(request), operations)))
