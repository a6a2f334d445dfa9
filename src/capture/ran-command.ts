/**
 * One shell command as lessons read it (session-lessons.ts), however it was seen: a hook's
 * payload or a transcript's tool call. A plain module: post-tool-use builds one per command.
 */
import { recognizeTestRun } from "../hooks/test-verdict.js"
import type { RanCommand } from "./session-lessons.js"

/** Enough of an error to find the line that names it, not a whole log. */
const MAX_ERROR = 2_000

/** `output`: what the command printed, or for a failed one the error the agent reported. */
export const ranCommand = (command: string, failed: boolean, output: string): RanCommand => ({
  command,
  failed,
  ...(failed ? { error: output.slice(0, MAX_ERROR) } : {}),
  ...(recognizeTestRun(command, output) === undefined ? {} : { test: true })
})
