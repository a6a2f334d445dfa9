/**
 * The hooks against each agent's own schema: every input an agent may send is read (Codex sends
 * `"transcript_path": null`), and every output is one the agent documents for that event.
 *
 * Sources, as each agent states them:
 * - Claude Code, the hooks reference (code.claude.com/docs/en/hooks): `hookSpecificOutput`
 *   with `additionalContext` for SessionStart and UserPromptSubmit; PreCompact, Stop and
 *   SessionEnd have no context output (PreCompact's only decision is a top-level "block").
 * - Codex, `codex-rs/hooks/src/schema.rs` in openai/codex: every input's `transcript_path` is
 *   a NullableString, as is Stop's `last_assistant_message`; SessionStart's output allows
 *   `continue`, `stopReason`, `suppressOutput`, `systemMessage` and `hookSpecificOutput`
 *   `{hookEventName: "SessionStart", additionalContext}`, and no other field
 *   (`deny_unknown_fields`).
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"

const setup = () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const run = memAt(db)
  run("add", "Always ask before running git push", "--global", "-c", "preference")
  run("add", "Deploy the web app with fly deploy --strategy bluegreen", "--global", "-c", "command")
  const hook = (event: string, input: unknown, agent?: string) =>
    mem(["--db", db, "hook", event, ...(agent === undefined ? [] : ["--agent", agent])], { input: JSON.stringify(input) })
  return { dir, hook }
}

/** The fields of an output object, each level's keys: what a schema with no unknown fields checks. */
const keysOf = (value: unknown): string[] => Object.keys(value as object).sort()

describe("Codex's input, with the nulls its schema allows", () => {
  it("session-start reads Codex's SessionStart input with transcript_path null and injects the index", () => {
    const { dir, hook } = setup()
    const input = {
      session_id: "019a-codex",
      transcript_path: null,
      cwd: dir,
      hook_event_name: "SessionStart",
      model: "gpt-5-codex",
      permission_mode: "default",
      source: "startup"
    }
    const result = hook("session-start", input, "codex")
    expect(result.code).toBe(0)
    const output = JSON.parse(result.stdout)
    expect(output.hookSpecificOutput.hookEventName).toBe("SessionStart")
    expect(output.hookSpecificOutput.additionalContext).toContain('"codex:session/019a-codex"')
  })

  it("user-prompt-submit and stop read Codex's inputs with their nullable fields null", () => {
    const { dir, hook } = setup()
    const common = { session_id: "019b-codex", turn_id: "t1", transcript_path: null, cwd: dir, model: "gpt-5-codex", permission_mode: "default" }
    hook("session-start", { ...common, hook_event_name: "SessionStart", source: "startup" }, "codex")
    const prompt = hook("user-prompt-submit", { ...common, hook_event_name: "UserPromptSubmit", prompt: "how do we deploy the web app?" }, "codex")
    expect(prompt.code).toBe(0)
    expect(JSON.parse(prompt.stdout).hookSpecificOutput.additionalContext).toContain("fly deploy")
    const stop = hook("stop", { ...common, hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: null }, "codex")
    expect(stop.code).toBe(0)
    expect(stop.stdout).toBe("")
  })
})

describe("every output is one the agent documents for its event", () => {
  it("Claude Code: context for SessionStart and UserPromptSubmit only, in hookSpecificOutput; nothing for the other events", () => {
    const { dir, hook } = setup()
    const base = { session_id: "cc-1", transcript_path: join(dir, "missing.jsonl"), cwd: dir, permission_mode: "default" }
    const outputs: Record<string, string> = {
      SessionStart: hook("session-start", { ...base, hook_event_name: "SessionStart", source: "startup" }).stdout,
      UserPromptSubmit: hook("user-prompt-submit", { ...base, hook_event_name: "UserPromptSubmit", prompt: "how do we deploy the web app?" }).stdout,
      PostToolUse: hook("post-tool-use", { ...base, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "a" } }).stdout,
      PreCompact: hook("pre-compact", { ...base, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" }).stdout,
      Stop: hook("stop", { ...base, hook_event_name: "Stop", stop_hook_active: false }).stdout,
      SessionEnd: hook("session-end", { ...base, hook_event_name: "SessionEnd", reason: "other" }).stdout
    }
    for (const event of ["SessionStart", "UserPromptSubmit"]) {
      const output = JSON.parse(outputs[event]!)
      expect(keysOf(output), event).toEqual(["hookSpecificOutput"])
      expect(keysOf(output.hookSpecificOutput), event).toEqual(["additionalContext", "hookEventName"])
      expect(output.hookSpecificOutput.hookEventName).toBe(event)
      expect(typeof output.hookSpecificOutput.additionalContext).toBe("string")
    }
    for (const event of ["PostToolUse", "PreCompact", "Stop", "SessionEnd"]) expect(outputs[event], event).toBe("")
  })

  it("Codex: session-start prints only fields Codex's SessionStart output schema has", () => {
    const { dir, hook } = setup()
    const result = hook("session-start", { session_id: "cx-1", transcript_path: null, cwd: dir, hook_event_name: "SessionStart", model: "m", permission_mode: "default", source: "resume" }, "codex")
    const output = JSON.parse(result.stdout)
    for (const key of keysOf(output)) expect(["continue", "stopReason", "suppressOutput", "systemMessage", "hookSpecificOutput"]).toContain(key)
    for (const key of keysOf(output.hookSpecificOutput)) expect(["hookEventName", "additionalContext"]).toContain(key)
    expect(output.hookSpecificOutput.hookEventName).toBe("SessionStart")
  })
})
