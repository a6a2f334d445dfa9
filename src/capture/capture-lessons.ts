/**
 * Keeps the lessons a session taught (session-lessons.ts) as observed, tentative memories of
 * that session: a failing command and its correction as `troubleshooting`, the session's test
 * command as `command`. Each goes through `remember`, so the privacy scan, restatement and
 * near-duplicate checks apply as for `mem add`, and carries its capture key, so a second turn
 * end or an import of the same session writes nothing new. Never fails its caller (a hook).
 */
import { Effect } from "effect"
import { Operations, type Caller } from "../api/operations.js"
import { captureOf, captureWasOff, wrote } from "./capture-key.js"
import { sessionLessons, type Lesson, type RanCommand } from "./session-lessons.js"

export interface CapturedLessons {
  /** The span hashes of every lesson this session has given, those just found included. */
  readonly kept: ReadonlyArray<string>
  /** How many memories were added or confirmed. */
  readonly written: number
}

/** `from`: the transcript file the commands were read from, when they came from an import. */
export const captureLessons = (
  runs: ReadonlyArray<RanCommand>,
  kept: ReadonlyArray<string>,
  caller: Caller,
  from?: string
): Effect.Effect<CapturedLessons, never, Operations> =>
  Effect.gen(function* () {
    const ops = yield* Operations
    const done = new Set(kept)
    let written = 0
    for (const lesson of sessionLessons(runs)) {
      const capture = captureOf(lesson.kind, spanOf(lesson), evidenceOf(lesson), from)
      if (done.has(capture.span)) continue
      const category = lesson.kind === "command-pair" ? "troubleshooting" : "command"
      const scope = caller.project === null ? "global" : "project"
      const result = yield* Effect.either(ops.remember({ content: lesson.text, category, scope, source: "observed", capture }, caller))
      // Tried once: a lesson the write path refuses would be refused again at every turn end.
      // With capture off it is not: turned back on, the next turn end keeps it.
      if (!captureWasOff(result)) done.add(capture.span)
      if (wrote(result)) written++
    }
    return { kept: [...done], written }
  })

/** What a lesson is keyed by: the commands, not the error text, which may carry times or paths. */
const spanOf = (lesson: Lesson): string => (lesson.kind === "command-pair" ? `${lesson.failed}\n${lesson.worked}` : lesson.command)

/** The command pair as a terminal showed it, or the test command and how often it ran. */
const evidenceOf = (lesson: Lesson): string =>
  lesson.kind === "command-pair"
    ? [`$ ${lesson.failed}`, ...(lesson.error === "" ? [] : [lesson.error]), `$ ${lesson.worked}`].join("\n")
    : `$ ${lesson.command}  (run ${lesson.times} times in this session)`
