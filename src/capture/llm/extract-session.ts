/**
 * Extraction by a language model of one session's transcript (docs/capture.md): the part said
 * since the last part a model read (transcript-part.ts: scanned for privacy, capped, newest
 * kept) goes to the model once, and what it answers is kept as extracted, tentative memories of
 * the session (capture-extracted.ts).
 *
 * Once per part: the session's state says how far models have read (`extractedThrough`), and a
 * part whose key a memory of the session already carries (events/capture.ts, `part`) is not
 * sent again, though that state was lost. A part counts as read once the model answered,
 * whatever the answer held; a server that cannot be reached or does not answer in time has read
 * nothing, and the next turn end sends the part again, with what was said since.
 *
 * The whole of it, waiting for another extraction of the session included, is bounded by the
 * configured time limit; interrupted, the request is aborted and its socket closed.
 */
import { readFileSync } from "node:fs"
import { Duration, Effect, Either } from "effect"
import { Operations, type Caller } from "../../api/operations.js"
import { logHookFailure } from "../../hooks/hooks-log.js"
import { loadSession, saveSession } from "../../hooks/session-state.js"
import { captureModeFor, readCaptureSettings } from "../capture-settings.js"
import { readTranscript } from "../transcripts/find-transcripts.js"
import { jsonLines, type SessionTranscript } from "../transcripts/session-transcript.js"
import { askModel, modelServer } from "./chat-completion.js"
import { captureExtracted } from "./capture-extracted.js"
import { ExtractionTimedOut, ModelAnswerUnusable, StoreUnavailable, TranscriptUnreadable, type ExtractionError } from "./extraction-errors.js"
import { extractionMessages } from "./extraction-prompt.js"
import type { LlmConfig } from "./llm-config.js"
import { groundedIn, parseModelAnswer } from "./model-answer.js"
import { extractionLock } from "./session-lock.js"
import { transcriptPart } from "./transcript-part.js"

export interface ExtractionRequest {
  readonly file: string
  readonly sessionId: string
  readonly caller: Caller
  /** The store the hooks' state belongs to (hooks/hooks-log.ts): its capture setting and session state. */
  readonly store: string
  readonly config: LlmConfig
  /** A part of fewer tokens is left for later (turn ends send only a part worth a question; a session's end sends any). */
  readonly atLeastTokens?: number
}

export type ExtractionReport =
  | { readonly sent: false; readonly why: "capture is not on" | "nothing new" | "too little new" | "already extracted" }
  | {
      readonly sent: true
      readonly tokens: number
      /** What the model answered: candidates, those that did not match the schema, those whose evidence is not in the text. */
      readonly candidates: number
      readonly invalid: number
      readonly unfounded: number
      /** Memories added or confirmed. */
      readonly written: number
    }

export const extractSession = (request: ExtractionRequest): Effect.Effect<ExtractionReport, ExtractionError, Operations> => {
  const { store, sessionId, caller, config, file } = request
  const work = Effect.gen(function* () {
    if (!captureIsOn(store, caller.project)) return { sent: false, why: "capture is not on" } as const
    yield* extractionLock(store, sessionId, config.timeoutMs + 10_000)
    const { session, throughLine } = yield* readSessionSoFar(file)
    const read = loadSession(store, sessionId).extractedThrough ?? 0
    // A transcript shorter than what was read is another file at the same path: read it afresh.
    const part = session === undefined ? undefined : transcriptPart(session, read <= throughLine ? read : 0)
    const readThrough = Effect.sync(() => saveSession(store, sessionId, { ...loadSession(store, sessionId), extractedThrough: throughLine }))
    if (part === undefined) return yield* Effect.as(readThrough, { sent: false, why: "nothing new" } as const)
    if (part.tokens < (request.atLeastTokens ?? 0)) return { sent: false, why: "too little new" } as const
    if (yield* partInLog(part.key, caller)) return yield* Effect.as(readThrough, { sent: false, why: "already extracted" } as const)
    const answer = yield* askModel(config, extractionMessages(part.text))
    yield* readThrough
    const parsed = parseModelAnswer(answer)
    if (Either.isLeft(parsed)) return yield* Effect.fail(new ModelAnswerUnusable({ server: modelServer(config), reason: parsed.left }))
    const { kept, unfounded } = groundedIn(part.text, parsed.right.candidates)
    const written = yield* captureExtracted(kept, part, file, caller)
    const { candidates, invalid } = parsed.right
    return { sent: true, tokens: part.tokens, candidates: candidates.length + invalid, invalid, unfounded, written } as const
  })
  return Effect.scoped(work).pipe(
    Effect.timeoutFail({ duration: Duration.millis(config.timeoutMs), onTimeout: () => new ExtractionTimedOut({ ms: config.timeoutMs }) })
  )
}

/**
 * `extractSession`, writing to hooks.log what failed and what the model said that was dropped:
 * an extraction runs beside a session, where nobody reads its output.
 */
export const extractSessionLogged = (request: ExtractionRequest): Effect.Effect<ExtractionReport, ExtractionError, Operations> => {
  const log = (message: string) => Effect.sync(() => logHookFailure(request.store, "extract", `${request.caller.origin}: ${message}`))
  return extractSession(request).pipe(
    Effect.tap((report) => (report.sent && report.invalid + report.unfounded > 0 ? log(droppedText(report)) : Effect.void)),
    Effect.tapError((error) => log(error.message))
  )
}

const droppedText = (r: { readonly candidates: number; readonly invalid: number; readonly unfounded: number }): string =>
  [
    `the model gave ${r.candidates} memories`,
    ...(r.invalid > 0 ? [`${r.invalid} without the fields asked for`] : []),
    ...(r.unfounded > 0 ? [`${r.unfounded} whose evidence is not in the text sent`] : [])
  ].join("; ") + ": those were dropped"

/** Extraction is part of capture `on`: `rules` and `off` send nothing anywhere. */
const captureIsOn = (store: string, project: string | null): boolean => {
  const settings = readCaptureSettings(store)
  return Either.isRight(settings) && captureModeFor(settings.right, project) === "on"
}

export interface SessionSoFar {
  readonly session: SessionTranscript | undefined
  /** The last line read whole: a last line still being written waits for the next time. */
  readonly throughLine: number
}

/** The session as written so far. */
export const readSessionSoFar = (file: string): Effect.Effect<SessionSoFar, TranscriptUnreadable> =>
  Effect.try({
    try: () => {
      const text = readFileSync(file, "utf8")
      const whole = text.slice(0, text.lastIndexOf("\n") + 1)
      const complete = jsonLines(text.slice(whole.length)).length > 0 ? text : whole
      const throughLine = (complete.match(/\n/g)?.length ?? 0) + (complete.length === 0 || complete.endsWith("\n") ? 0 : 1)
      return { session: readTranscript(file, complete), throughLine }
    },
    catch: (error) => new TranscriptUnreadable({ file, reason: error instanceof Error ? error.message : String(error) })
  })

/** Whether a memory of this session already carries the part's key: its events say so, though the session's state was lost. */
const partInLog = (key: string, caller: Caller) =>
  Effect.gen(function* () {
    const ops = yield* Operations
    let after: number | null = 0
    while (after !== null) {
      const page: { events: ReadonlyArray<{ payload: unknown }>; next: number | null } = yield* ops.log(
        { origin: caller.origin, types: ["MemoryAdded", "MemoryConfirmed"], limit: 1_000, after },
        caller
      )
      if (page.events.some((e) => partOf(e.payload) === key)) return true
      after = page.next
    }
    return false
  }).pipe(Effect.mapError((error) => new StoreUnavailable({ reason: error.message })))

const partOf = (payload: unknown): unknown => {
  const capture = typeof payload === "object" && payload !== null ? (payload as { capture?: unknown }).capture : undefined
  return typeof capture === "object" && capture !== null ? (capture as { part?: unknown }).part : undefined
}
