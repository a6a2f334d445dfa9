/**
 * A Codex session file (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`): one
 * `{timestamp, type, payload}` per line (the rollout format of codex-rs). The first line is
 * `session_meta` (`payload.id`, `payload.cwd`). What the person typed is an `event_msg` of type
 * `user_message` (`message`): the `response_item` user messages also hold the instructions
 * and environment Codex injects. What the agent said is an `event_msg` `agent_message`. A shell
 * command is a `response_item` `function_call` (`shell` with `arguments.command` as argv,
 * `exec_command` with `arguments.cmd`, `shell_command` with `arguments.command`) answered by a
 * `function_call_output` with the same `call_id`, or an `event_msg` `exec_command_end`
 * (`command` argv, `exit_code`), which newer versions record.
 *
 * Its outcome is the exit code the file states: `exec_command_end.exit_code`, the JSON output's
 * `metadata.exit_code`, or the output's `Process exited with code N` / `Exit code: N` line. A
 * command whose exit code the file does not state is left out: a guess could make a lesson wrong.
 */
import { basename } from "node:path"
import { ranCommand } from "../ran-command.js"
import { isInjected, isRecord, jsonLines, textOf, type SessionTranscript } from "./session-transcript.js"

export const readCodexSession = (file: string, text: string): SessionTranscript | undefined => {
  let sessionId: string | undefined
  let cwd: string | undefined
  const prompts: Array<{ text: string; line: number }> = []
  const replies: Array<{ text: string; line: number }> = []
  const calls = new Map<string, { command: string; line: number }>()
  const runs: Array<SessionTranscript["runs"][number]> = []
  const done = new Set<string>()
  const ran = (callId: string, command: string, line: number, exitCode: number | undefined, output: string) => {
    if (done.has(callId) || exitCode === undefined) return
    done.add(callId)
    runs.push({ ...ranCommand(command, exitCode !== 0, output), line })
  }
  for (const { value: entry, line } of jsonLines(text)) {
    const payload = isRecord(entry.payload) ? entry.payload : undefined
    if (payload === undefined) continue
    if (entry.type === "session_meta") {
      sessionId ??= textOf(payload.id)
      cwd ??= textOf(payload.cwd)
    } else if (entry.type === "event_msg" && payload.type === "user_message") {
      const typed = textOf(payload.message)
      if (typed !== undefined && !isInjected(typed)) prompts.push({ text: typed, line })
    } else if (entry.type === "event_msg" && payload.type === "agent_message") {
      const said = textOf(payload.message)
      if (said !== undefined) replies.push({ text: said, line })
    } else if (entry.type === "event_msg" && payload.type === "exec_command_end") {
      const command = commandText(payload.command)
      const callId = textOf(payload.call_id)
      const output = textOf(payload.aggregated_output) ?? `${textOf(payload.stdout) ?? ""}\n${textOf(payload.stderr) ?? ""}`
      if (command !== undefined && callId !== undefined) ran(callId, command, calls.get(callId)?.line ?? line, numberOf(payload.exit_code), output)
    } else if (entry.type === "response_item" && payload.type === "function_call") {
      const command = shellCallCommand(textOf(payload.name), textOf(payload.arguments))
      const callId = textOf(payload.call_id)
      if (command !== undefined && callId !== undefined) calls.set(callId, { command, line })
    } else if (entry.type === "response_item" && payload.type === "function_call_output") {
      const callId = textOf(payload.call_id)
      const call = callId === undefined ? undefined : calls.get(callId)
      if (call === undefined || callId === undefined) continue
      const { exitCode, output } = outcomeOf(textOf(payload.output) ?? "")
      ran(callId, call.command, call.line, exitCode, output)
    }
  }
  if (prompts.length === 0 && runs.length === 0) return undefined
  return { agent: "codex", sessionId: sessionId ?? basename(file, ".jsonl"), ...(cwd === undefined ? {} : { cwd }), prompts, replies, runs }
}

/** The command of a shell tool call, from its JSON arguments. */
const shellCallCommand = (name: string | undefined, args: string | undefined): string | undefined => {
  if (args === undefined || !["shell", "exec_command", "shell_command", "local_shell"].includes(name ?? "")) return undefined
  try {
    const parsed: unknown = JSON.parse(args)
    if (!isRecord(parsed)) return undefined
    return commandText(parsed.cmd) ?? commandText(parsed.command)
  } catch {
    return undefined
  }
}

/** argv as the shell line it runs: `["bash", "-lc", "npm test"]` is `npm test`. */
const commandText = (value: unknown): string | undefined => {
  if (typeof value === "string") return value
  if (!Array.isArray(value) || !value.every((w) => typeof w === "string")) return undefined
  const argv = value as string[]
  const shell = /(^|\/)(ba|z|da|k)?sh$/.test(argv[0] ?? "")
  if (shell && argv.length === 3 && /^-l?c$/.test(argv[1]!)) return argv[2]
  return argv.join(" ")
}

/** A tool output's exit code and text: JSON `{output, metadata: {exit_code}}`, or text stating the code. */
const outcomeOf = (raw: string): { exitCode: number | undefined; output: string } => {
  try {
    const parsed: unknown = JSON.parse(raw)
    if (isRecord(parsed) && isRecord(parsed.metadata)) return { exitCode: numberOf(parsed.metadata.exit_code), output: textOf(parsed.output) ?? "" }
  } catch {
    // Plain text: the exit code, if any, is on a line of its own.
  }
  const stated = /^(?:Process exited with code|Exit code:?) (-?\d+)\s*$/m.exec(raw)
  return { exitCode: stated === null ? undefined : Number(stated[1]), output: raw }
}

const numberOf = (value: unknown): number | undefined => (typeof value === "number" && Number.isInteger(value) ? value : undefined)
