/**
 * One `mem hook EVENT` process, however it was started (the hook bundle's entry, or the full
 * CLI's `hook` command): reads the agent's JSON from stdin, runs the hook, and prints the
 * context to inject as one JSON value, or nothing. A hook must never fail or stall a session:
 * any error or a run past the time budget prints nothing, exits 0, and is logged to hooks.log
 * in the store's state folder.
 *
 * post-tool-use (and its failure twin), which runs after every shell command, needs only plain modules, and so does
 * pre-compact; the events that read or write the store are handed to the store's `mem mcp`
 * process when one runs (relay-client.ts), else load Effect, the store and retrieval
 * (store-hook.ts) when they run, or, with a server configured, Effect and the HTTP client
 * (remote-hook.ts).
 */
import { remoteFromEnv } from "../../api/remote-config.js"
import { readHookInput } from "../../hooks/hook-input.js"
import { hookSocketPath, hookTimeLimitMs, type HookRequest, type StoreHookOutcome } from "../../hooks/hook-request.js"
import { hookStoreOf, logHookFailure } from "../../hooks/hooks-log.js"
import { recordToolUse } from "../../hooks/tool-use.js"
import { defaultDbPath } from "../../store/default-path.js"
import type { HookCommand } from "./hook-command.js"
import { readStdin, writeStdout } from "./std-io.js"

const MAX_STDIN = 8 * 1024 * 1024

export const runHookCommand = async (command: HookCommand): Promise<void> => {
  // The store the hooks' state belongs to: the file, or the server the hook talks to.
  const store = hookStoreOf(command.db, defaultDbPath())
  const log = (message: string) => logHookFailure(store, command.event, message)
  try {
    const reading = readHookInput(JSON.parse(await readStdin(MAX_STDIN)))
    if ("problem" in reading) return log(reading.problem)
    const place = { dbPath: store, sessionId: reading.input.session_id ?? "unknown", nowIso: new Date().toISOString() }
    if (command.event === "post-tool-use" || command.event === "post-tool-use-failure") {
      return recordToolUse(reading.input, place, command.event === "post-tool-use-failure")
    }
    // pre-compact prints nothing and reads nothing (hooks/handlers.ts says why it is kept).
    if (command.event === "pre-compact") return
    const request: HookRequest = { event: command.event, agent: command.agent, input: reading.input, place, cwd: process.cwd(), env: process.env }
    // An explicit store file is local; without one, a configured server is where the store is.
    const remote = command.db === undefined ? remoteFromEnv() : undefined
    const outcome =
      remote === undefined
        ? ((await relayed(store, request)) ?? (await (await import("./store-hook.js")).runStoreHook(command.db, request)))
        : await (await import("./remote-hook.js")).runRemoteHook(remote, request)
    if ("failure" in outcome) return log(outcome.failure)
    if (outcome.output !== undefined) writeStdout(`${JSON.stringify(outcome.output)}\n`)
  } catch (error) {
    log(error instanceof Error ? error.message : String(error))
  }
}

/** The outcome from the store's MCP server, or undefined when none listens (or relaying is off: MEMLEDGER_HOOK_RELAY=off). */
const relayed = async (store: string, request: HookRequest): Promise<StoreHookOutcome | undefined> => {
  const socket = process.env.MEMLEDGER_HOOK_RELAY === "off" ? undefined : hookSocketPath(store)
  return socket === undefined ? undefined : (await import("./relay-client.js")).relayHook(socket, request, hookTimeLimitMs())
}
