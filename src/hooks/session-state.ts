/**
 * What the hooks remember about one agent session between their short-lived processes: how far
 * into the log the session has looked, the latest test verdict, the commands it ran, the ids it
 * cited, and which memories already got this session's outcome. Kept in a small JSON file per
 * session next to the store; it is working state, not history, so it stays out of the log.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { Schema } from "effect"

const Verdict = Schema.Struct({
  verdict: Schema.Literal("worked", "failed"),
  runner: Schema.String,
  passed: Schema.Number,
  failed: Schema.Number,
  at: Schema.String
})
export type SessionVerdict = typeof Verdict.Type

const SessionState = Schema.Struct({
  /** The last sequence number this session has seen: later events by others are news. */
  lastSeq: Schema.Number,
  verdict: Schema.optional(Verdict),
  /** The most recent shell commands the agent ran (bounded). */
  commands: Schema.Array(Schema.String),
  /** Memory ids the agent cited, as full ids. */
  cited: Schema.Array(Schema.String),
  /** Memories that already received this session's outcome: each gets one. */
  attributed: Schema.Array(Schema.String),
  /** How many bytes of the transcript were already read for citations. */
  transcriptOffset: Schema.Number
})
export type SessionState = typeof SessionState.Type

export const EMPTY_SESSION: SessionState = { lastSeq: 0, commands: [], cited: [], attributed: [], transcriptOffset: 0 }

const MAX_COMMANDS = 50

/** Session ids come from the agent: keep them to a safe file name. */
const fileFor = (dbPath: string, sessionId: string): string =>
  join(dirname(dbPath), "sessions", `${sessionId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120)}.json`)

export const loadSession = (dbPath: string, sessionId: string): SessionState => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(fileFor(dbPath, sessionId), "utf8"))
    return Schema.decodeUnknownSync(SessionState)(parsed)
  } catch {
    return EMPTY_SESSION
  }
}

/** Written to a temporary file and renamed, so a hook killed mid-write never leaves half a file. */
export const saveSession = (dbPath: string, sessionId: string, state: SessionState): void => {
  const file = fileFor(dbPath, sessionId)
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 })
  renameSync(temporary, file)
}

export const withCommand = (state: SessionState, command: string): SessionState => ({
  ...state,
  commands: [...state.commands, command].slice(-MAX_COMMANDS)
})
