/** `mem install AGENT` and `mem uninstall AGENT`: connect an agent to memledger, or take it out again. */
import { homedir } from "node:os"
import { resolve } from "node:path"
import { Args, Command, Options } from "@effect/cli"
import { Cause, Effect, Either, Exit, Option } from "effect"
import type { Direction } from "../../../install/file-edit.js"
import { applyPlan, planInstall } from "../../../install/installer.js"
import type { InstallIoFailed } from "../../../install/errors.js"
import { findLauncher, onPath, type Launcher } from "../../../install/launcher.js"
import type { Target } from "../../../install/target.js"
import { TARGETS } from "../../../install/targets/index.js"
import { dryRunText, onPathNote, planJson, planText } from "../install-output.js"
import { fail } from "../output.js"
import { forTerminal } from "../terminal-text.js"
import * as O from "../options.js"
import { mem } from "../root.js"

const options = {
  agent: Args.choice(
    TARGETS.map((target): [string, Target] => [target.name, target]),
    { name: "agent" }
  ).pipe(Args.withDescription("the agent to connect (or disconnect)")),
  user: Options.boolean("user").pipe(Options.withDescription("for every project, in your home folder (the default)")),
  project: Options.boolean("project").pipe(Options.withDescription("for the project in the current folder only")),
  dryRun: Options.boolean("dry-run").pipe(Options.withDescription("print each file's change and write nothing")),
  json: O.json
}

type Parsed = { readonly agent: Target; readonly user: boolean; readonly project: boolean; readonly dryRun: boolean; readonly json: boolean }

export const install = Command.make("install", options, (a) => run("install", a)).pipe(
  Command.withDescription("Connect an agent to memledger: its MCP server, and for claude-code and codex hooks, commands and instructions")
)

export const uninstall = Command.make("uninstall", options, (a) => run("uninstall", a)).pipe(
  Command.withDescription("Take out exactly what 'mem install' added for an agent; the rest of its settings stay")
)

const run = (direction: Direction, a: Parsed) =>
  Effect.gen(function* () {
    const { db } = yield* mem
    if (a.user && a.project) return fail(a.json, "UsageError", "give --user or --project, not both")
    const scope = a.project ? ("project" as const) : ("user" as const)
    // The registered commands run from other folders, so a relative store path is made absolute
    // now. A project's files are a team's: they name `mem` on the PATH and take only a --db
    // given here, never this machine's MEMLEDGER_DB.
    const given = Option.getOrUndefined(Option.map(db, (path) => resolve(path)))
    const store = given ?? (process.env.MEMLEDGER_DB ? resolve(process.env.MEMLEDGER_DB) : undefined)
    const launcher: Either.Either<Launcher, InstallIoFailed> = scope === "project" ? Either.right(onPath(given)) : findLauncher(import.meta.url, store)
    if (Either.isLeft(launcher)) return fail(a.json, launcher.left._tag, launcher.left.message)
    const context = { scope, home: resolve(homedir()), cwd: process.cwd(), launcher: launcher.right, env: process.env }
    const exit = yield* Effect.exit(
      Effect.tap(planInstall(a.agent, direction, context), (plan) => (a.dryRun ? Effect.void : applyPlan(plan, [context.home, context.cwd])))
    )
    if (Exit.isFailure(exit)) {
      const error = Cause.failureOption(exit.cause)
      if (Option.isNone(error)) return fail(a.json, "InternalError", Cause.pretty(exit.cause), 1)
      return fail(a.json, error.value._tag, error.value.message, error.value._tag === "UnsupportedScope" ? 2 : 1)
    }
    const plan = exit.value
    const text = a.json ? JSON.stringify(planJson(plan, a.dryRun)) : a.dryRun ? dryRunText(plan) : planText(plan, a.agent.next)
    const note = !a.json && scope === "project" && direction === "install" ? `\n${onPathNote(process.env.PATH)}` : ""
    process.stdout.write(`${a.json ? text : forTerminal(text)}${note}\n`)
  })
