/**
 * How a hook starts an extraction without waiting for it: `mem capture extract` as a detached
 * process of its own, with the hook's environment (where MEMLEDGER_LLM_KEY stays: never on a
 * command line, which other users can list). The hook returns at once; the extraction has its
 * own time limit and writes its failures to hooks.log. Nothing starts unless a model is
 * configured, the agent gave a transcript, and capture is `on` where the session works.
 */
import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { resolve } from "node:path"
import { Either } from "effect"
import { logHookFailure } from "../../hooks/hooks-log.js"
import { isStoreUrl } from "../../store/store-url.js"
import { findLauncher } from "../../install/launcher.js"
import { captureModeFor, readCaptureSettings } from "../capture-settings.js"
import { readLlmSetting } from "./llm-config.js"

export interface ExtractionStart {
  /** The store the hooks' state belongs to: its file, or the server's URL (hooks/hooks-log.ts). */
  readonly store: string
  readonly transcript: string | undefined
  readonly sessionId: string
  readonly agent: string
  readonly project: string | null
  readonly cwd: string
  /** A turn end asks for a part worth a question; a session's end sends what is left. */
  readonly atLeastTokens?: number
}

/** At a turn end, a part of fewer tokens waits for more: a question to the model per short turn would cost more than it finds. */
export const TURN_END_PART_TOKENS = 1_000

/** Whether an extraction was started. */
export const startExtraction = (start: ExtractionStart, env: NodeJS.ProcessEnv = process.env): boolean => {
  const setting = readLlmSetting(env)
  if (setting._tag === "Invalid") logHookFailure(start.store, "extract", setting.problem)
  if (setting._tag !== "On" || start.transcript === undefined || !existsSync(start.transcript)) return false
  const settings = readCaptureSettings(start.store)
  if (Either.isLeft(settings) || captureModeFor(settings.right, start.project) !== "on") return false
  const launcher = findLauncher(import.meta.url, undefined)
  if (Either.isLeft(launcher)) {
    logHookFailure(start.store, "extract", launcher.left.message)
    return false
  }
  // Paths made absolute: the child works in the session's folder, not the hook's.
  const args = [
    launcher.right.script,
    // Without --db the child finds the hook's store as the hook did: MEMLEDGER_URL's server. A
    // database's URL (postgres://) is passed as it is, a file by its absolute path.
    ...(/^https?:\/\//i.test(start.store) ? [] : ["--db", isStoreUrl(start.store) ? start.store : resolve(start.store)]),
    ...["capture", "extract", "--transcript", resolve(start.transcript), "--session", start.sessionId, "--agent", start.agent],
    ...(start.atLeastTokens === undefined ? [] : ["--at-least", String(start.atLeastTokens)])
  ]
  const cwd = existsSync(start.cwd) ? start.cwd : process.cwd()
  // Required here, not imported: most turns start no extraction, and loading node:child_process
  // cost each stop and session-end hook about a fifteenth of a bare node start.
  const { spawn } = createRequire(import.meta.url)("node:child_process") as typeof import("node:child_process")
  const child = spawn(launcher.right.node, args, { cwd, env, detached: true, stdio: "ignore" })
  child.on("error", (error) => logHookFailure(start.store, "extract", `cannot start the extraction: ${error.message}`))
  child.unref()
  return true
}
