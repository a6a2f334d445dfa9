/**
 * `mem capture [on|rules|off] [--project NAME]`: shows, or sets, whether memledger keeps what
 * it notices (docs/capture.md): for the whole store, or for one project, whose setting wins. The
 * setting lives in the store's state folder on the machine that has the store, so it runs there
 * (with MEMLEDGER_URL, on the server's machine).
 */
import { Args, Command } from "@effect/cli"
import { Effect, Either, Option } from "effect"
import { CAPTURE_MODES, captureSummary, readCaptureSettings, writeCaptureSettings, type CaptureSettings } from "../../../capture/capture-settings.js"
import { StoreMaintenance } from "../../../store/store-maintenance.js"
import { UsageError } from "../output.js"
import * as O from "../options.js"
import { withStore } from "../root.js"

const mode = Args.choice(CAPTURE_MODES.map((m) => [m, m] as const), { name: "mode" }).pipe(
  Args.withDescription("on: rules and lessons; rules: rules from prompts only; off: nothing (leave out to show the setting)"),
  Args.optional
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
).pipe(Command.withDescription("Show or set what memledger captures on its own: on, rules only, or off, for the store or one project"))
