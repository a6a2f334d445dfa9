/**
 * The transcript files under a path: the file itself, or every `.jsonl` below a folder
 * (`~/.claude/projects`, `~/.codex/sessions`), in name order so an import always runs the same
 * way; and which agent wrote each, read from its lines.
 */
import { readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { readClaudeCodeTranscript } from "./claude-code.js"
import { readCodexSession } from "./codex.js"
import type { SessionTranscript } from "./session-transcript.js"

export const transcriptFiles = (path: string): string[] => {
  if (!statSync(path).isDirectory()) return [path]
  return readdirSync(path, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => {
      const full = join(path, entry.name)
      if (entry.isDirectory()) return transcriptFiles(full)
      return entry.isFile() && entry.name.endsWith(".jsonl") ? [full] : []
    })
}

/** A Codex rollout opens with `session_meta`; anything else is read as Claude Code's. Undefined: no session in it. */
export const readTranscript = (file: string, text: string): SessionTranscript | undefined =>
  /^\s*\{[^\n]*"type"\s*:\s*"session_meta"/.test(text) ? readCodexSession(file, text) : readClaudeCodeTranscript(file, text)
