/**
 * One past agent session as capture reads it, whatever agent wrote the file: who and where,
 * what the person typed, what the agent answered, and the shell commands with how each went. Readers for each agent's
 * files (claude-code.ts, codex.ts) produce it; import-transcripts.ts captures from it.
 */
import type { Caller } from "../../api/operations.js"
import { detectProject } from "../../project/identity.js"
import type { RanCommand } from "../session-lessons.js"

export interface SessionTranscript {
  /** The agent that wrote it, as hooks name it: the origin is `${agent}:session/${sessionId}`. */
  readonly agent: "claude-code" | "codex"
  readonly sessionId: string
  /** The folder the session worked in, when the file says. */
  readonly cwd?: string
  /** What the person typed, with the line of the file it is on. */
  readonly prompts: ReadonlyArray<{ readonly text: string; readonly line: number }>
  /** What the agent said to the person (its text, not its tool calls), with the line it is on. */
  readonly replies: ReadonlyArray<{ readonly text: string; readonly line: number }>
  /** Shell commands whose outcome the file records, in order. */
  readonly runs: ReadonlyArray<RanCommand & { readonly line: number }>
}

/** Who wrote what a session gives: the session, as the hooks name it, in the project of the folder it worked in (global without one). */
export const sessionCaller = (agent: string, sessionId: string, cwd: string | undefined): Caller => ({
  origin: `${agent}:session/${sessionId}`,
  agent,
  project: cwd === undefined ? null : detectProject(cwd)
})

/** Each line of a JSONL file parsed, with its 1-based number; a line that is not JSON is skipped. */
export const jsonLines = (text: string): Array<{ readonly value: Record<string, unknown>; readonly line: number }> =>
  text.split("\n").flatMap((raw, i) => {
    if (raw.trim().length === 0) return []
    try {
      const value: unknown = JSON.parse(raw)
      return isRecord(value) ? [{ value, line: i + 1 }] : []
    } catch {
      return []
    }
  })

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

export const textOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined)

/** A message's text: a string, or the text parts of a content list. */
export const contentText = (content: unknown, partTypes: ReadonlyArray<string>): string | undefined => {
  if (typeof content === "string") return content
  if (!Array.isArray(content)) return undefined
  const texts = content.flatMap((part: unknown) => (isRecord(part) && partTypes.includes(String(part.type)) && typeof part.text === "string" ? [part.text] : []))
  return texts.length > 0 ? texts.join("\n") : undefined
}

/** Text the agent or a tool put in the person's place (slash command wrappers, injected context), not typed. */
export const isInjected = (text: string): boolean => /^\s*(<[a-z_-]+>|Caveat: |\[Request interrupted)/i.test(text)
