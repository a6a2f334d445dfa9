/**
 * post-tool-use and post-tool-use-failure: remember the shell command the agent ran, whether it
 * failed, and, when its output is a recognised test run, the session's latest verdict. It runs after every tool call, so it touches only the
 * session's state file, never the store, and loads no more than the plain modules it imports.
 */
import { shellCommandOf, toolOutputOf, type HookInput } from "./hook-input.js"
import { loadSession, saveSession, withCommand } from "./session-state.js"
import { ranCommand } from "../capture/ran-command.js"
import { recognizeTestRun } from "./test-verdict.js"

/** Where the session's state lives and when this happened. */
export interface ToolUseSetting {
  /** The store the session state belongs to (its file's path, or its server's URL): see state-folder.ts. */
  readonly dbPath: string
  readonly sessionId: string
  readonly nowIso: string
}

/**
 * `failed`: the agent reported the tool call failed (Claude Code's PostToolUseFailure, sent in
 * place of PostToolUse, a non-zero exit included); its error text then stands for the output.
 * A call the user interrupted says nothing about the command, so it is not kept.
 */
export const recordToolUse = (input: HookInput, setting: ToolUseSetting, failed = false): void => {
  const command = shellCommandOf(input)
  if (command === undefined || (failed && input.is_interrupt === true)) return
  const output = failed ? (input.error ?? "") : toolOutputOf(input)
  const run = recognizeTestRun(command, output)
  const state = withCommand(loadSession(setting.dbPath, setting.sessionId), ranCommand(command, failed, output))
  const verdict = run === undefined ? {} : { verdict: { verdict: run.verdict, runner: run.runner, passed: run.passed, failed: run.failed, at: setting.nowIso } }
  saveSession(setting.dbPath, setting.sessionId, { ...state, ...verdict })
}
