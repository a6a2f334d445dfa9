/**
 * The hooks that read or write the store (all but post-tool-use), over `Operations`: the store
 * file, or the server MEMLEDGER_URL names. Loaded by run-hook.ts only for these events.
 */
import { Cause, Duration, Effect, Exit } from "effect"
import { operationsForStore } from "../../api/operations-from-env.js"
import { runHook, type HookOutput } from "../../hooks/handlers.js"
import type { HookInput } from "../../hooks/hook-input.js"
import type { ToolUseSetting } from "../../hooks/tool-use.js"
import { detectProject } from "../../project/identity.js"
import { currentTask } from "../../tasks/find-tasks.js"
import type { HookCommand } from "./hook-command.js"

/** Agents give hooks a few seconds; finishing well inside 2 s keeps prompts snappy. */
const BUDGET = Duration.millis(1_800)

export type StoreHookOutcome = { readonly output: HookOutput | undefined } | { readonly failure: string }

export const runStoreHook = async (command: HookCommand, input: HookInput, place: ToolUseSetting): Promise<StoreHookOutcome> => {
  const cwd = input.cwd ?? process.cwd()
  const caller = { origin: `${command.agent}:session/${place.sessionId}`, agent: command.agent, project: detectProject(cwd) }
  const task = currentTask({ cwd, env: process.env })?.ref
  const setting = { ...place, caller, ...(task === undefined ? {} : { task }) }
  const program = Effect.provide(runHook(command.event, input, setting), operationsForStore(command.db)).pipe(
    Effect.timeoutFail({ duration: BUDGET, onTimeout: () => new Error(`took longer than ${Duration.format(BUDGET)}`) }),
    Effect.scoped
  )
  const exit = await Effect.runPromiseExit(program)
  return Exit.isFailure(exit) ? { failure: Cause.pretty(exit.cause) } : { output: exit.value }
}
