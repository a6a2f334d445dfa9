/**
 * Claude Code transcript lines as `~/.claude/projects/*\/<session>.jsonl` holds them (the shape
 * test/fixtures/transcripts/README.md describes), for tests that write a session as it goes.
 */
import { appendFileSync, writeFileSync } from "node:fs"

export const claudeSession = (sessionId: string, cwd: string) => {
  let n = 0
  const envelope = () => {
    n++
    return { parentUuid: null, isSidechain: false, userType: "external", cwd, sessionId, version: "2.0.14", uuid: `u-${n}`, timestamp: new Date(Date.UTC(2026, 0, 5, 10, n)).toISOString() }
  }
  return {
    user: (text: string): string => JSON.stringify({ ...envelope(), type: "user", message: { role: "user", content: text } }),
    agent: (text: string): string => JSON.stringify({ ...envelope(), type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } }),
    /** A Bash call and its result: two lines. */
    bash: (command: string, output: string, failed = false): string[] => {
      const id = `toolu_${n}`
      return [
        JSON.stringify({ ...envelope(), type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command } }] } }),
        JSON.stringify({ ...envelope(), type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: output, is_error: failed }] } })
      ]
    }
  }
}

export const writeLines = (file: string, lines: ReadonlyArray<string>): void => writeFileSync(file, `${lines.join("\n")}\n`)
export const appendLines = (file: string, lines: ReadonlyArray<string>): void => appendFileSync(file, `${lines.join("\n")}\n`)
