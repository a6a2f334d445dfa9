/**
 * What Claude Code and Codex send a hook on stdin, as far as memledger reads it. Every field is
 * optional and unknown fields are ignored: agents add fields between versions, and a hook must
 * never fail a session over its input. A text may also be null, which reads as absent: Codex's
 * schema makes `transcript_path` nullable on every event (`NullableString` in
 * codex-rs/hooks/src/schema.rs) and sends null when it keeps no transcript.
 */
import { Schema } from "effect"

const Text = Schema.optional(Schema.NullOr(Schema.String))

export const HookInput = Schema.Struct({
  session_id: Text,
  transcript_path: Text,
  cwd: Text,
  hook_event_name: Text,
  /** SessionStart: startup, resume, clear or compact. */
  source: Text,
  /** UserPromptSubmit. */
  prompt: Text,
  /** PostToolUse. */
  tool_name: Text,
  tool_input: Schema.optional(Schema.Unknown),
  tool_response: Schema.optional(Schema.Unknown)
})
export type HookInput = typeof HookInput.Type

export const HOOK_EVENTS = ["session-start", "user-prompt-submit", "post-tool-use", "pre-compact", "stop", "session-end"] as const
export type HookEvent = (typeof HOOK_EVENTS)[number]

/** The shell command of a Bash tool call, if that is what this was. */
export const shellCommandOf = (input: HookInput): string | undefined => {
  const toolInput = input.tool_input
  return typeof toolInput === "object" && toolInput !== null && "command" in toolInput && typeof toolInput.command === "string"
    ? toolInput.command
    : undefined
}

/** A tool's output as text: Bash answers {stdout, stderr}; other tools a string or an object. */
export const toolOutputOf = (input: HookInput): string => {
  const response = input.tool_response
  if (typeof response === "string") return response
  if (typeof response !== "object" || response === null) return ""
  const parts = ["stdout", "stderr", "output"].flatMap((key) => {
    const value = (response as Record<string, unknown>)[key]
    return typeof value === "string" ? [value] : []
  })
  return parts.length > 0 ? parts.join("\n") : JSON.stringify(response)
}
