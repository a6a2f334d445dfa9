/**
 * The hooks that use the store, on a store file (`--db`, else MEMLEDGER_DB, else the default):
 * loaded by run-hook.ts only for these events, and only when no server is configured.
 */
import type { HookInput } from "../../hooks/hook-input.js"
import type { ToolUseSetting } from "../../hooks/tool-use.js"
import { LocalOperationsLayer } from "../../services/app.js"
import { defaultDbPath } from "../../store/default-path.js"
import type { HookCommand } from "./hook-command.js"
import { runHookOver, type StoreHookOutcome } from "./hook-program.js"

export const runStoreHook = (command: HookCommand, input: HookInput, place: ToolUseSetting): Promise<StoreHookOutcome> =>
  runHookOver(LocalOperationsLayer(command.db ?? defaultDbPath()), command, input, place)
