/**
 * post-tool-use: remembers the shell command the agent ran and, when its output is a recognised
 * test run, the session's latest verdict. It runs after every tool call, so it touches only the
 * session's state file, never the store, and loads no more than the plain modules it imports.
 */
import { shellCommandOf, toolOutputOf, type HookInput } from "./hook-input.js"
import { loadSession, saveSession, withCommand } from "./session-state.js"
import { recognizeTestRun } from "./test-verdict.js"

/** Where the session's state lives and when this happened. */
export interface ToolUseSetting {
  /** The store the session state belongs to (its file's path, or its server's URL): see state-folder.ts. */
  readonly dbPath: string
  readonly sessionId: string
  readonly nowIso: string
}

export const recordToolUse = (input: HookInput, setting: ToolUseSetting): void => {
  const command = shellCommandOf(input)
  if (command === undefined) return
  const state = withCommand(loadSession(setting.dbPath, setting.sessionId), command)
  const run = recognizeTestRun(command, toolOutputOf(input))
  const verdict = run === undefined ? {} : { verdict: { verdict: run.verdict, runner: run.runner, passed: run.passed, failed: run.failed, at: setting.nowIso } }
  saveSession(setting.dbPath, setting.sessionId, { ...state, ...verdict })
}
