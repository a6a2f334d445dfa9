/**
 * `mem import --transcripts PATH`: past sessions of Claude Code and Codex run through the same
 * capture as live hooks, each with that session as origin: the rules the person stated in
 * their prompts (capture-rules.ts, over what they typed only) and the lessons of the session's
 * commands (capture-lessons.ts), and, with a language model configured, what it draws from the
 * session (capture/llm). Every capture carries its key, so importing again, or importing a
 * session the hooks already captured, adds nothing.
 */
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import type { Operations } from "../../api/operations.js"
import { captureLessons } from "../capture-lessons.js"
import { captureRules } from "../capture-rules.js"
import { extractSessionLogged } from "../llm/extract-session.js"
import type { LlmConfig } from "../llm/llm-config.js"
import { readTranscript, transcriptFiles } from "./find-transcripts.js"
import { sessionCaller } from "./session-transcript.js"

export interface TranscriptImport {
  readonly files: number
  readonly sessions: number
  /** Memories added or confirmed, by a model's extraction too. */
  readonly written: number
  /** With a language model configured: the parts it read, the memories it gave, and the sessions it failed on (hooks.log says why). */
  readonly extracted?: { readonly parts: number; readonly written: number; readonly failed: number }
}

/** A language model to read each session with (capture/llm), and the store whose hooks' state says how far models have read. */
export interface ImportExtraction {
  readonly config: LlmConfig
  readonly store: string
}

export const importTranscripts = (
  path: string,
  onProgress: (done: number, total: number) => void = () => {},
  extraction?: ImportExtraction
): Effect.Effect<TranscriptImport, never, Operations> =>
  Effect.gen(function* () {
    const files = transcriptFiles(path)
    let sessions = 0
    let written = 0
    const extracted = { parts: 0, written: 0, failed: 0 }
    for (const [i, file] of files.entries()) {
      onProgress(i, files.length)
      const session = readTranscript(file, readFileSync(file, "utf8"))
      if (session === undefined) continue
      sessions++
      const caller = sessionCaller(session.agent, session.sessionId, session.cwd)
      let stated: ReadonlyArray<string> = []
      for (const prompt of session.prompts) {
        const rules = yield* captureRules(prompt.text.slice(0, 2_000), stated, caller, `${file}:${prompt.line}`)
        stated = rules.stated
        written += rules.written
      }
      // The lesson's evidence quotes its commands; the file says which session they ran in.
      const lessons = yield* captureLessons(session.runs, [], caller, file)
      written += lessons.written
      if (extraction === undefined) continue
      // One session at a time, each within the time limit: the same once-per-part extraction
      // the hooks start, so a session they already had read sends only what they had not.
      const request = { file, sessionId: session.sessionId, caller, ...extraction }
      const report = yield* Effect.either(extractSessionLogged(request))
      if (report._tag === "Left") extracted.failed++
      else if (report.right.sent) {
        extracted.parts++
        extracted.written += report.right.written
        written += report.right.written
      }
    }
    onProgress(files.length, files.length)
    return { files: files.length, sessions, written, ...(extraction === undefined ? {} : { extracted }) }
  })
