/**
 * The hooks that use the store, against the server MEMLEDGER_URL names (when no --db names a
 * file): the same handlers over the server's `Operations`. Loaded by run-hook.ts only then, so a
 * hook on a local store never loads the HTTP client.
 */
import type { HookInput } from "../../hooks/hook-input.js"
import type { ToolUseSetting } from "../../hooks/tool-use.js"
import { OperationsRemote, type RemoteConfig } from "../../api/operations-remote.js"
import type { HookCommand } from "./hook-command.js"
import { runHookOver, type StoreHookOutcome } from "./hook-program.js"

export const runRemoteHook = (command: HookCommand, input: HookInput, place: ToolUseSetting, remote: RemoteConfig): Promise<StoreHookOutcome> =>
  runHookOver(OperationsRemote(remote), command, input, place)
