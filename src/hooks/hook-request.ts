/**
 * One run of a hook that uses the store, as a value: what the hook process read and where it
 * ran. A hook runs it itself, or hands it to the `mem mcp` process that already holds the store
 * open (docs/hooks.md, "Hooks through the MCP server"). Plain, so the hook bundle stays small.
 */
import { join } from "node:path"
import type { HookOutput } from "./handlers.js"
import { isHookEvent, type HookEvent, type HookInput } from "./hook-input.js"
import { storeStateFolder } from "./state-folder.js"
import type { ToolUseSetting } from "./tool-use.js"

export interface HookRequest {
  readonly event: HookEvent
  readonly agent: string
  readonly input: HookInput
  readonly place: ToolUseSetting
  /** The hook process's folder and environment: the project and the task in progress are read from them. */
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
}

/** The hooks that read or write the store; post-tool-use and pre-compact touch only files. */
export const isStoreHookEvent = (word: string): word is HookEvent =>
  isHookEvent(word) && word !== "post-tool-use" && word !== "post-tool-use-failure" && word !== "pre-compact"

export type StoreHookOutcome = { readonly output: HookOutput | undefined } | { readonly failure: string }

/**
 * Agents give hooks a few seconds; finishing well inside 2 s keeps prompts snappy. A slow link
 * to a shared server may want longer: MEMLEDGER_HOOK_TIME_LIMIT_MS, a whole number of ms.
 */
export const hookTimeLimitMs = (env: NodeJS.ProcessEnv = process.env): number => {
  const asked = Number(env.MEMLEDGER_HOOK_TIME_LIMIT_MS)
  return Number.isInteger(asked) && asked > 0 ? asked : 1_800
}

/** In the socket's name: a hook never hands a request to a server that reads them differently, it runs it itself. */
const RELAY_PROTOCOL = 1

/** A socket's path must fit `sun_path`: 108 bytes on Linux, 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH = 100

/**
 * Where the MCP server of a store file listens for its hooks: in the store's state folder,
 * which only its owner may enter. Undefined when that path is too long for a socket (a deep
 * MEMLEDGER_STATE_DIR): hooks then run in their own process.
 */
export const hookSocketPath = (store: string, env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const path = join(storeStateFolder(store, env), `hooks-${RELAY_PROTOCOL}.sock`)
  return Buffer.byteLength(path) <= MAX_SOCKET_PATH ? path : undefined
}
