/**
 * What Claude Code and Codex send a hook on stdin, as far as memledger reads it. Every field is
 * optional and unknown fields are ignored: agents add fields between versions, and a hook must
 * never fail a session over its input. A text may also be null, which reads as absent: Codex's
 * schema makes `transcript_path` nullable on every event (`NullableString` in
 * codex-rs/hooks/src/schema.rs) and sends null when it keeps no transcript.
 *
 * Read by hand rather than with an Effect Schema: post-tool-use runs after every shell command
 * and loads nothing but this folder's plain modules, and loading Effect's Schema alone would
 * cost it half a bare node start (docs/benchmarks.md, "Agent hooks").
 */

export interface HookInput {
  readonly session_id?: string | null
  readonly transcript_path?: string | null
  readonly cwd?: string | null
  readonly hook_event_name?: string | null
  /** SessionStart: startup, resume, clear or compact. */
  readonly source?: string | null
  /** UserPromptSubmit. */
  readonly prompt?: string | null
  /** PostToolUse. */
  readonly tool_name?: string | null
  readonly tool_input?: unknown
  readonly tool_response?: unknown
  /**
   * PostToolUseFailure (Claude Code, which sends it in place of PostToolUse when a tool fails,
   * a shell command's non-zero exit included): what went wrong, and whether the user
   * interrupted it (`error`, `is_interrupt` in the hooks reference and the Agent SDK's
   * PostToolUseFailureHookInput).
   */
  readonly error?: string | null
  readonly is_interrupt?: unknown
}

const TEXTS = ["session_id", "transcript_path", "cwd", "hook_event_name", "source", "prompt", "tool_name", "error"] as const
const VALUES = ["tool_input", "tool_response", "is_interrupt"] as const

export type HookInputReading = { readonly input: HookInput } | { readonly problem: string }

/** The agent's JSON, parsed: an object whose texts are strings or null; anything else is a problem. */
export const readHookInput = (value: unknown): HookInputReading => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { problem: `hook input is not a JSON object: ${excerpt(value)}` }
  const fields = value as Record<string, unknown>
  const input: Record<string, unknown> = {}
  for (const key of TEXTS) {
    const text = fields[key]
    if (text !== undefined && text !== null && typeof text !== "string") return { problem: `hook input's ${key} is not a string or null: ${excerpt(text)}` }
    if (key in fields) input[key] = text
  }
  for (const key of VALUES) if (key in fields) input[key] = fields[key]
  return { input }
}

export const HOOK_EVENTS = ["session-start", "user-prompt-submit", "post-tool-use", "post-tool-use-failure", "pre-compact", "stop", "session-end"] as const
export type HookEvent = (typeof HOOK_EVENTS)[number]

export const isHookEvent = (word: string): word is HookEvent => (HOOK_EVENTS as ReadonlyArray<string>).includes(word)

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

const excerpt = (value: unknown): string => String(JSON.stringify(value)).slice(0, 80)
