/**
 * What the hooks remember about one agent session between their short-lived processes: how far
 * into the log the session has looked, the latest test verdict, the commands it ran, the ids it
 * cited, and which memories already got this session's outcome. Kept in a small JSON file per
 * session in the store's state folder (state-folder.ts); it is working state, not history, so it
 * stays out of the log.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { sessionsFolder } from "./state-folder.js"

export interface SessionVerdict {
  readonly verdict: "worked" | "failed"
  readonly runner: string
  readonly passed: number
  readonly failed: number
  readonly at: string
}

/** One shell command the agent ran, and whether the agent reported it failed (tool-use.ts). */
export interface CommandRun {
  readonly command: string
  readonly failed: boolean
  /** What the agent reported as the failure, cut short. */
  readonly error?: string
  /** Its output was a test run's summary (test-verdict.ts). */
  readonly test?: boolean
}

export interface SessionState {
  /** The last sequence number this session has seen: later events by others are news. */
  readonly lastSeq: number
  readonly verdict?: SessionVerdict
  /** The most recent shell commands the agent ran (bounded). */
  readonly commands: ReadonlyArray<string>
  /** Memory ids the agent cited, as full ids. */
  readonly cited: ReadonlyArray<string>
  /** Memories that already received this session's outcome: each gets one. */
  readonly attributed: ReadonlyArray<string>
  /** How many bytes of the transcript were already read for citations. */
  readonly transcriptOffset: number
  /** The restatement keys of the rules the person stated in this session's prompts (capture-rules.ts). */
  readonly rules?: ReadonlyArray<string>
  /** The shell commands with how each went, most recent last (bounded): what lessons are drawn from. */
  readonly runs?: ReadonlyArray<CommandRun>
  /** The span hashes of the lessons already kept from this session (capture-lessons.ts). */
  readonly lessons?: ReadonlyArray<string>
  /** The last line of the transcript a language model has read (capture/llm): the next part starts after it. */
  readonly extractedThrough?: number
}

export const EMPTY_SESSION: SessionState = { lastSeq: 0, commands: [], cited: [], attributed: [], transcriptOffset: 0 }

const MAX_COMMANDS = 50

/** A file of this session's in the store's sessions folder. Session ids come from the agent: keep them to a safe file name. */
export const sessionFileOf = (store: string, sessionId: string, extension = ".json"): string =>
  join(sessionsFolder(store), `${sessionId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 120)}${extension}`)

export const loadSession = (dbPath: string, sessionId: string): SessionState => {
  try {
    return sessionStateOf(JSON.parse(readFileSync(sessionFileOf(dbPath, sessionId), "utf8"))) ?? EMPTY_SESSION
  } catch {
    return EMPTY_SESSION
  }
}

/** Written to a temporary file and renamed, so a hook killed mid-write never leaves half a file. */
export const saveSession = (dbPath: string, sessionId: string, state: SessionState): void => {
  const file = sessionFileOf(dbPath, sessionId)
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(state), { mode: 0o600 })
  renameSync(temporary, file)
}

/**
 * A state file's JSON as a SessionState, or undefined if it is not one (then the session starts
 * afresh). Checked by hand, not by an Effect Schema, for the reason hook-input.ts gives; fields
 * it does not know are dropped.
 */
export const sessionStateOf = (value: unknown): SessionState | undefined => {
  if (!isRecord(value)) return undefined
  const { lastSeq, verdict, commands, cited, attributed, transcriptOffset, rules, runs, lessons, extractedThrough } = value
  if (typeof lastSeq !== "number" || typeof transcriptOffset !== "number") return undefined
  if (!isTextList(commands) || !isTextList(cited) || !isTextList(attributed)) return undefined
  if (rules !== undefined && !isTextList(rules)) return undefined
  if (lessons !== undefined && !isTextList(lessons)) return undefined
  if (runs !== undefined && !(Array.isArray(runs) && runs.every(isCommandRun))) return undefined
  if (extractedThrough !== undefined && typeof extractedThrough !== "number") return undefined
  const state = {
    lastSeq,
    commands,
    cited,
    attributed,
    transcriptOffset,
    ...(rules === undefined ? {} : { rules }),
    ...(runs === undefined ? {} : { runs }),
    ...(lessons === undefined ? {} : { lessons }),
    ...(extractedThrough === undefined ? {} : { extractedThrough })
  }
  if (verdict === undefined) return state
  if (!isVerdict(verdict)) return undefined
  const { runner, passed, failed, at } = verdict
  return { ...state, verdict: { verdict: verdict.verdict, runner, passed, failed, at } }
}

export const withCommand = (state: SessionState, run: CommandRun): SessionState => ({
  ...state,
  commands: [...state.commands, run.command].slice(-MAX_COMMANDS),
  runs: [...(state.runs ?? []), run].slice(-MAX_COMMANDS)
})

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const isTextList = (value: unknown): value is ReadonlyArray<string> => Array.isArray(value) && value.every((item) => typeof item === "string")

const isCommandRun = (value: unknown): value is CommandRun =>
  isRecord(value) &&
  typeof value.command === "string" &&
  typeof value.failed === "boolean" &&
  (value.error === undefined || typeof value.error === "string") &&
  (value.test === undefined || typeof value.test === "boolean")

const isVerdict = (value: unknown): value is SessionVerdict =>
  isRecord(value) &&
  (value.verdict === "worked" || value.verdict === "failed") &&
  typeof value.runner === "string" &&
  typeof value.passed === "number" &&
  typeof value.failed === "number" &&
  typeof value.at === "string"
