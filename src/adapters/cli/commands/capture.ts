/**
 * `mem capture [on|rules|off] [--project NAME]`: shows, or sets, whether memledger keeps what
 * it notices (docs/capture.md): for the whole store, or for one project, whose setting wins. The
 * setting lives in the store's state folder on the machine that has the store, so it runs there
 * (with MEMLEDGER_URL, on the server's machine).
 *
 * `mem capture extract --transcript FILE`: a language model reads what the session said since
 * it last read it; the hooks start it in the background at each turn end.
 */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Either, Option } from "effect"
import { CAPTURE_MODES, captureSummary, readCaptureSettings, writeCaptureSettings, type CaptureSettings } from "../../../capture/capture-settings.js"
import { extractSessionLogged, type ExtractionReport } from "../../../capture/llm/extract-session.js"
import { extractionRequestFor } from "../../../capture/llm/extraction-request.js"
import { LLM_ENV, readLlmSetting, type LlmConfig } from "../../../capture/llm/llm-config.js"
import { hookStoreOf } from "../../../hooks/hooks-log.js"
import { defaultDbPath } from "../../../store/default-path.js"
import { StoreMaintenance } from "../../../store/store-maintenance.js"
import { count } from "../format.js"
import { UsageError } from "../output.js"
import * as O from "../options.js"
import { CREATES, mem, withOperations, withStore } from "../root.js"

const mode = Args.choice(CAPTURE_MODES.map((m) => [m, m] as const), { name: "mode" }).pipe(
  Args.withDescription("on: rules and lessons; rules: rules from prompts only; off: nothing (leave out to show the setting)"),
  Args.optional
)

export const captureExtract = Command.make(
  "extract",
  {
    transcript: Options.text("transcript").pipe(Options.withDescription("a Claude Code or Codex session transcript (.jsonl)")),
    session: Options.text("session").pipe(Options.withDescription("the session's id (default: the one the transcript names)"), Options.optional),
    agent: Options.text("agent").pipe(Options.withDescription("the agent of the session (default: the one that wrote the transcript)"), Options.optional),
    atLeast: Options.integer("at-least").pipe(Options.withDescription("send nothing until the new part has this many tokens"), Options.optional),
    json: O.json
  },
  (a) =>
    Effect.flatMap(mem, ({ db }) =>
      withOperations(
        Effect.gen(function* () {
          const config = yield* configuredModel
          if (config === undefined) return yield* Effect.fail(new UsageError(`no language model is configured: set ${LLM_ENV.url} and ${LLM_ENV.model}`))
          const given = { ...O.some("sessionId", a.session), ...O.some("agent", a.agent), ...O.some("atLeastTokens", a.atLeast) }
          const request = yield* extractionRequestFor(a.transcript, given, hookStoreOf(Option.getOrUndefined(db), defaultDbPath()), config)
          return yield* extractSessionLogged(request)
        }),
        { json: a.json, human: extractionText },
        CREATES
      )
    )
).pipe(
  Command.withDescription(
    "Have the language model MEMLEDGER_LLM_URL names read what a session said since it last read it, and keep what it finds as tentative memories"
  )
)

export const capture = Command.make("capture", { mode, project: O.project, json: O.json }, (a) =>
  withStore(
    Effect.gen(function* () {
      const { location: path } = yield* StoreMaintenance
      const current = readCaptureSettings(path)
      if (Either.isLeft(current)) return yield* Effect.fail(new UsageError(`${current.left}: fix it or delete it (capture stays off until then)`))
      if (Option.isNone(a.mode)) return current.right
      const settings: CaptureSettings = Option.isSome(a.project)
        ? { ...current.right, projects: { ...current.right.projects, [a.project.value]: a.mode.value } }
        : { ...current.right, store: a.mode.value }
      writeCaptureSettings(path, settings)
      return settings
    }),
    { json: a.json, human: (s) => `capture: ${captureSummary(s)}` }
  )
).pipe(
  Command.withDescription("Show or set what memledger captures on its own: on, rules only, or off, for the store or one project"),
  Command.withSubcommands([captureExtract])
)

/** The model MEMLEDGER_LLM_* name; none when they are unset, a usage error when they are set wrong. */
export const configuredModel: Effect.Effect<LlmConfig | undefined, UsageError> = Effect.suspend(() => {
  const setting = readLlmSetting()
  if (setting._tag === "Invalid") return Effect.fail(new UsageError(`${setting.problem} (docs/capture.md)`))
  return Effect.succeed(setting._tag === "On" ? setting.config : undefined)
})

const extractionText = (r: ExtractionReport): string => {
  if (!r.sent) return `nothing sent: ${NOT_SENT[r.why]}`
  const dropped = r.invalid + r.unfounded
  const of = `of ${count(r.candidates, "memory", "memories")} it gave${dropped > 0 ? `, ${dropped} dropped (hooks.log says why)` : ""}`
  return `sent ${count(r.tokens, "token")} to the language model: ${r.written} kept or confirmed, ${of}`
}

const NOT_SENT: Record<Extract<ExtractionReport, { sent: false }>["why"], string> = {
  "capture is not on": "capture is not on here ('mem capture on' turns it on)",
  "nothing new": "nothing was said since a model last read this session",
  "too little new": "what was said since a model last read this session is short; it waits for more",
  "already extracted": "a model already read this part of the session"
}
