/**
 * A Claude Code transcript (`~/.claude/projects/<folder>/<session>.jsonl`): one JSON object per
 * line, `type` "user" or "assistant" with `sessionId`, `cwd` and `message: {role, content}`.
 * What the person typed is a user message whose content is text (not a `tool_result`, not
 * `isMeta`, not a wrapper Claude Code injected); what the agent said, an assistant message's
 * text parts; a shell command is an assistant `tool_use` part named Bash (`input.command`), and
 * its outcome the user `tool_result` part with the same `tool_use_id`, `is_error: true` when the
 * agent reported it failed. A command the user interrupted tells nothing and is left out.
 */
import { basename } from "node:path"
import { ranCommand } from "../ran-command.js"
import { contentText, isInjected, isRecord, jsonLines, textOf, type SessionTranscript } from "./session-transcript.js"

export const readClaudeCodeTranscript = (file: string, text: string): SessionTranscript | undefined => {
  let sessionId: string | undefined
  let cwd: string | undefined
  const prompts: Array<{ text: string; line: number }> = []
  const replies: Array<{ text: string; line: number }> = []
  const pending = new Map<string, { command: string; line: number }>()
  const runs: Array<SessionTranscript["runs"][number]> = []
  for (const { value: entry, line } of jsonLines(text)) {
    if (entry.type !== "user" && entry.type !== "assistant") continue
    sessionId ??= textOf(entry.sessionId)
    cwd ??= textOf(entry.cwd)
    const message = isRecord(entry.message) ? entry.message : undefined
    if (message === undefined) continue
    const parts = Array.isArray(message.content) ? message.content.filter(isRecord) : []
    if (entry.type === "assistant") {
      const said = contentText(parts, ["text"])
      if (said !== undefined) replies.push({ text: said, line })
      for (const part of parts) {
        const command = part.type === "tool_use" && part.name === "Bash" && isRecord(part.input) ? textOf(part.input.command) : undefined
        if (command !== undefined && typeof part.id === "string") pending.set(part.id, { command, line })
      }
      continue
    }
    const results = parts.filter((part) => part.type === "tool_result")
    for (const result of results) {
      const call = typeof result.tool_use_id === "string" ? pending.get(result.tool_use_id) : undefined
      if (call === undefined) continue
      pending.delete(result.tool_use_id as string)
      const output = contentText(result.content, ["text"]) ?? ""
      if (output.includes("[Request interrupted by user")) continue
      runs.push({ ...ranCommand(call.command, result.is_error === true, output), line: call.line })
    }
    if (results.length > 0 || entry.isMeta === true || entry.isCompactSummary === true) continue
    const typed = contentText(message.content, ["text"])
    if (typed !== undefined && !isInjected(typed)) prompts.push({ text: typed, line })
  }
  if (prompts.length === 0 && runs.length === 0) return undefined
  return { agent: "claude-code", sessionId: sessionId ?? basename(file, ".jsonl"), ...(cwd === undefined ? {} : { cwd }), prompts, replies, runs }
}
