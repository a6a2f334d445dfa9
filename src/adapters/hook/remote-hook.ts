/**
 * The hooks that use the store, against the server MEMLEDGER_URL names (when no --db names a
 * file): the same handlers over the server's `Operations`. Loaded by run-hook.ts only then, so a
 * hook on a local store never loads the HTTP client.
 */
import { OperationsRemote, type RemoteConfig } from "../../api/operations-remote.js"
import type { HookRequest, StoreHookOutcome } from "../../hooks/hook-request.js"
import { runHookOver } from "./hook-program.js"

export const runRemoteHook = (remote: RemoteConfig, request: HookRequest): Promise<StoreHookOutcome> => runHookOver(OperationsRemote(remote), request)
