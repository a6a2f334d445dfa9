/**
 * What each agent hook does, over `Operations` (so hooks work against a local file or a
 * remote `mem serve` alike). Each returns the context to inject, or nothing.
 *
 * - session-start: the session index (its `compact` source re-injects it after a compaction).
 * - user-prompt-submit: a one-line notice when others changed memory since this session last
 *   looked, and the few memories that answer the prompt (nothing when none does); then keeps
 *   the rules the person stated in it as observed, tentative memories (docs/capture.md).
 * - post-tool-use, post-tool-use-failure: remember shell commands and whether each failed, and
 *   the verdict of a recognised test run.
 * - pre-compact: nothing. Claude Code documents no context output for PreCompact (only a
 *   decision to block it); SessionStart with source `compact` injects the index once the
 *   compacted window is built. Kept so that settings written by earlier installs still run.
 * - stop / session-end: gives the session's latest verdict, once, to each memory the agent
 *   actually used: cited by id in its messages, or whose `command` it ran. Shown is not used.
 *   Then keeps what the session's commands taught (a failing command and its correction, the
 *   test command it kept running) as observed, tentative memories (docs/capture.md), and, with
 *   a language model configured, starts its extraction of what was said since it last read the
 *   transcript, in the background (capture/llm).
 */
import { Effect } from "effect"
import { Operations, type Caller } from "../api/operations.js"
import { captureLessons } from "../capture/capture-lessons.js"
import { captureRules } from "../capture/capture-rules.js"
import { startExtraction, TURN_END_PART_TOKENS } from "../capture/llm/start-extraction.js"
import { idCandidates, readAssistantText } from "./citations.js"
import { ranCommandOf } from "./command-use.js"
import type { HookEvent, HookInput } from "./hook-input.js"
import { sessionIndex } from "./session-index.js"
import { loadSession, saveSession, type SessionState } from "./session-state.js"
import { recordToolUse, type ToolUseSetting } from "./tool-use.js"

export interface HookOutput {
  readonly hookSpecificOutput: { readonly hookEventName: string; readonly additionalContext: string }
}

export interface HookSetting extends ToolUseSetting {
  readonly caller: Caller
  /** The task in progress (Beads, Claude Code todos): recalls and outcomes are linked to it. */
  readonly task?: string
  /** The hook process's environment, which a background extraction inherits; this process's when absent. */
  readonly env?: NodeJS.ProcessEnv
}

/** The prompt's relevant memories get this many tokens at most: the index already holds the rules. */
const PROMPT_BUDGET = 400
const MAX_NEWS = 500
const MAX_CITATIONS = 30

const inject = (hookEventName: string, additionalContext: string): HookOutput => ({ hookSpecificOutput: { hookEventName, additionalContext } })

export const runHook = (event: HookEvent, input: HookInput, setting: HookSetting) => {
  const { dbPath, sessionId, caller } = setting
  const task = setting.task === undefined ? {} : { task: setting.task }
  const load = Effect.sync(() => loadSession(dbPath, sessionId))
  // post-tool-use runs in the background (docs/hooks.md) and may write the state file while
  // another hook works: each saves its own fields onto the file as it is now, not as it was
  // when that hook began, so that the commands and the verdict just written stay.
  const save = (own: Partial<SessionState>) => Effect.sync(() => saveSession(dbPath, sessionId, { ...loadSession(dbPath, sessionId), ...own }))

  switch (event) {
    case "session-start":
      return Effect.gen(function* () {
        const ops = yield* Operations
        const index = yield* sessionIndex(caller)
        // How far the log goes is its newest event's number; stats would count every memory too.
        const { events: newest } = yield* ops.log({ limit: 1, newest_first: true }, caller)
        yield* save({ lastSeq: newest[0]?.seq ?? 0 })
        return inject("SessionStart", index)
      })
    case "pre-compact":
      return Effect.succeed(undefined)
    case "user-prompt-submit":
      return Effect.gen(function* () {
        const ops = yield* Operations
        const state = yield* load
        const news = yield* ops.log({ after: state.lastSeq, limit: MAX_NEWS }, caller)
        const prompt = input.prompt?.trim() ?? ""
        const relevant = prompt.length > 0 ? (yield* ops.getContext({ query: prompt.slice(0, 2_000), budget: PROMPT_BUDGET, ...task }, caller)).text : ""
        // After the lookup, so a rule just stated is not offered back as an answer to its own prompt.
        const { stated } = yield* captureRules(prompt.slice(0, 2_000), state.rules ?? [], caller)
        const lastSeq = Math.max(state.lastSeq, ...news.events.map((e) => e.seq))
        yield* save({ lastSeq, rules: stated })
        // Without a baseline (no session-start seen, e.g. installed mid-session) everything would
        // look new: say nothing this time, and compare from here on.
        const others = state.lastSeq === 0 ? [] : news.events.filter((e) => e.origin !== caller.origin && e.type !== "MemoriesRecalled")
        const notice = newsNotice(others, news.next !== null)
        const text = [notice, relevant].filter((t) => t.length > 0).join("\n\n")
        return text.length > 0 ? inject("UserPromptSubmit", text) : undefined
      })
    case "post-tool-use":
    case "post-tool-use-failure":
      return Effect.sync(() => {
        recordToolUse(input, setting, event === "post-tool-use-failure")
        return undefined
      })
    case "stop":
    case "session-end":
      return Effect.gen(function* () {
        const ops = yield* Operations
        const state = yield* load
        const read = readAssistantText(input.transcript_path ?? undefined, state.transcriptOffset)
        const cited = new Set(state.cited)
        for (const candidate of idCandidates(read.text).slice(0, MAX_CITATIONS)) {
          const memory = yield* Effect.option(ops.getMemory({ id: candidate }, caller))
          // Only live memories can take an outcome; a superseded one would refuse it on every turn.
          if (memory._tag === "Some" && !memory.value.forgotten && memory.value.supersededBy === null) cited.add(memory.value.id)
        }
        let attributed = state.attributed
        if (state.verdict !== undefined) {
          const commands = yield* ops.list({ category: "command", limit: 200, ...(caller.project === null ? {} : { project: caller.project }) }, caller)
          const ran = commands.memories.filter((m) => ranCommandOf(m.content, state.commands)).map((m) => m.id)
          const used = [...new Set([...cited, ...ran])].filter((id) => !attributed.includes(id))
          if (used.length > 0) {
            const { verdict, runner, passed, failed } = state.verdict
            // A cited memory forgotten or superseded since refuses the outcome; retrying on every
            // turn would refuse again, so these count as attributed either way.
            yield* Effect.either(ops.recordOutcome({ memory_ids: used, outcome: verdict, note: `${runner}: ${passed} passed, ${failed} failed`, ...task }, caller))
            attributed = [...attributed, ...used]
          }
        }
        const lessons = yield* captureLessons(state.runs ?? [], state.lessons ?? [], caller)
        yield* save({ cited: [...cited], attributed, transcriptOffset: read.offset, lessons: lessons.kept })
        // Started, not awaited: a model may take a minute, and the session must not wait for it.
        yield* Effect.sync(() =>
          startExtraction({
            store: dbPath,
            transcript: input.transcript_path ?? undefined,
            sessionId,
            agent: caller.agent,
            project: caller.project,
            cwd: input.cwd ?? process.cwd(),
            ...(event === "stop" ? { atLeastTokens: TURN_END_PART_TOKENS } : {})
          }, setting.env)
        )
        return undefined
      })
  }
}

const newsNotice = (events: ReadonlyArray<{ readonly type: string }>, more: boolean): string => {
  if (events.length === 0) return ""
  const count = `${events.length}${more ? "+" : ""}`
  return `memledger: memory changed since this session last looked (${count} change${events.length === 1 && !more ? "" : "s"} from other sessions or machines); call recall if it bears on this task.`
}
