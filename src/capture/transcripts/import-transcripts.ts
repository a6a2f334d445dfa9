/**
 * `mem import --transcripts PATH`: past sessions of Claude Code and Codex run through the same
 * capture as live hooks, each with that session as origin: the rules the person stated in
 * their prompts (capture-rules.ts, over what they typed only) and the lessons of the session's
 * commands (capture-lessons.ts). Every capture carries its key, so importing again, or
 * importing a session the hooks already captured, adds nothing.
 */
import { readFileSync } from "node:fs"
import { Effect } from "effect"
import { Operations, type Caller } from "../../api/operations.js"
import { detectProject } from "../../project/identity.js"
import { captureLessons } from "../capture-lessons.js"
import { captureRules } from "../capture-rules.js"
import { readTranscript, transcriptFiles } from "./find-transcripts.js"

export interface TranscriptImport {
  readonly files: number
  readonly sessions: number
  /** Memories added or confirmed. */
  readonly written: number
}

export const importTranscripts = (
  path: string,
  onProgress: (done: number, total: number) => void = () => {}
): Effect.Effect<TranscriptImport, never, Operations> =>
  Effect.gen(function* () {
    const files = transcriptFiles(path)
    let sessions = 0
    let written = 0
    for (const [i, file] of files.entries()) {
      onProgress(i, files.length)
      const session = readTranscript(file, readFileSync(file, "utf8"))
      if (session === undefined) continue
      sessions++
      const caller: Caller = {
        origin: `${session.agent}:session/${session.sessionId}`,
        agent: session.agent,
        project: session.cwd === undefined ? null : detectProject(session.cwd)
      }
      let stated: ReadonlyArray<string> = []
      for (const prompt of session.prompts) {
        const rules = yield* captureRules(prompt.text.slice(0, 2_000), stated, caller, `${file}:${prompt.line}`)
        stated = rules.stated
        written += rules.written
      }
      // The lesson's evidence quotes its commands; the file says which session they ran in.
      const lessons = yield* captureLessons(session.runs, [], caller, file)
      written += lessons.written
    }
    onProgress(files.length, files.length)
    return { files: files.length, sessions, written }
  })
