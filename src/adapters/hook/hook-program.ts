/**
 * A hook that reads or writes the store (all but post-tool-use and pre-compact), run over the
 * `Operations` it is given: the store file's (store-hook.ts) or a server's (remote-hook.ts).
 * Each of those is a bundle of its own, so a hook on a local store never loads the HTTP client.
 */
import { Cause, Duration, Effect, Exit, type Layer } from "effect"
import type { Operations } from "../../api/operations.js"
import { runHook, type HookOutput } from "../../hooks/handlers.js"
import type { HookInput } from "../../hooks/hook-input.js"
import type { ToolUseSetting } from "../../hooks/tool-use.js"
import { detectProject } from "../../project/identity.js"
import { currentTask } from "../../tasks/find-tasks.js"
import type { HookCommand } from "./hook-command.js"

/**
 * Agents give hooks a few seconds; finishing well inside 2 s keeps prompts snappy. A slow link
 * to a shared server may want longer: MEMLEDGER_HOOK_TIME_LIMIT_MS, a whole number of ms.
 */
const budget = (): Duration.Duration => {
  const asked = Number(process.env.MEMLEDGER_HOOK_TIME_LIMIT_MS)
  return Duration.millis(Number.isInteger(asked) && asked > 0 ? asked : 1_800)
}

export type StoreHookOutcome = { readonly output: HookOutput | undefined } | { readonly failure: string }

export const runHookOver = async <E>(
  operations: Layer.Layer<Operations, E>,
  command: HookCommand,
  input: HookInput,
  place: ToolUseSetting
): Promise<StoreHookOutcome> => {
  const cwd = input.cwd ?? process.cwd()
  const caller = { origin: `${command.agent}:session/${place.sessionId}`, agent: command.agent, project: detectProject(cwd) }
  const task = currentTask({ cwd, env: process.env })?.ref
  const setting = { ...place, caller, ...(task === undefined ? {} : { task }) }
  const limit = budget()
  const program = Effect.provide(runHook(command.event, input, setting), operations).pipe(
    Effect.timeoutFail({ duration: limit, onTimeout: () => new Error(`took longer than ${Duration.format(limit)}`) }),
    Effect.scoped
  )
  const exit = await Effect.runPromiseExit(program)
  return Exit.isFailure(exit) ? { failure: Cause.pretty(exit.cause) } : { output: exit.value }
}
