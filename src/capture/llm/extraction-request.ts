/**
 * What `mem capture extract --transcript FILE` asks for: the session the file holds, read from
 * its lines (its id, its agent, the project of the folder it worked in), unless the hook that
 * started the extraction said which session and agent, as it names them in its own captures.
 */
import { basename } from "node:path"
import { Effect } from "effect"
import { sessionCaller } from "../transcripts/session-transcript.js"
import { readSessionSoFar, type ExtractionRequest } from "./extract-session.js"
import type { TranscriptUnreadable } from "./extraction-errors.js"
import type { LlmConfig } from "./llm-config.js"

export interface GivenSession {
  readonly sessionId?: string
  readonly agent?: string
  readonly atLeastTokens?: number
}

export const extractionRequestFor = (
  file: string,
  given: GivenSession,
  store: string,
  config: LlmConfig
): Effect.Effect<ExtractionRequest, TranscriptUnreadable> =>
  Effect.map(readSessionSoFar(file), ({ session }) => {
    const sessionId = given.sessionId ?? session?.sessionId ?? basename(file, ".jsonl")
    const agent = given.agent ?? session?.agent ?? "claude-code"
    const caller = sessionCaller(agent, sessionId, session?.cwd)
    return { file, sessionId, caller, store, config, ...(given.atLeastTokens === undefined ? {} : { atLeastTokens: given.atLeastTokens }) }
  })
