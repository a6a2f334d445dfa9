/**
 * The hooks that use the store, on a store file (`--db`, else MEMLEDGER_DB, else the default):
 * loaded by run-hook.ts only for these events, and only when no server is configured.
 */
import { LocalOperationsLayer } from "../../services/app.js"
import { defaultDbPath } from "../../store/default-path.js"
import type { HookRequest, StoreHookOutcome } from "../../hooks/hook-request.js"
import { runHookOver } from "./hook-program.js"

export const runStoreHook = (db: string | undefined, request: HookRequest): Promise<StoreHookOutcome> =>
  runHookOver(LocalOperationsLayer(db ?? defaultDbPath()), request)
