/** The `mem` command line: parse, run one command against the store, exit 0, 1 or 2. */
import { Command, HelpDoc, ValidationError } from "@effect/cli"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect } from "effect"
import { add } from "./commands/add.js"
import { doctor } from "./commands/doctor.js"
import { hook } from "./commands/hook.js"
import { confirm, edit, forget, outcome, restore, supersede } from "./commands/change.js"
import { conversations, forgetConversation, log } from "./commands/history.js"
import { install, uninstall } from "./commands/install.js"
import { list, show, stats } from "./commands/inspect.js"
import { mcp } from "./commands/mcp.js"
import { context, search, why } from "./commands/recall.js"
import { serve } from "./commands/serve.js"
import { exportCmd, importCmd, purge, rebuild, replay, verify } from "./commands/store-admin.js"
import { tasks } from "./commands/tasks.js"
import { blankTagProblem, stdinLast } from "./argv.js"
import { cliConsole } from "./cli-console.js"
import { fail } from "./output.js"
import { mem } from "./root.js"
import { VERSION } from "../../version.js"

const cli = mem.pipe(
  Command.withDescription("memledger: memory for coding agents, kept as an append-only event log"),
  Command.withSubcommands([
    add, importCmd, search, why, context, show, list, edit, outcome, confirm, supersede, forget, restore,
    forgetConversation, conversations, log, exportCmd, replay, rebuild, verify, purge, stats, doctor,
    tasks,
    hook,
    mcp,
    serve,
    install,
    uninstall
  ])
)

const run = Command.run(cli, { name: "memledger", version: VERSION })

const argv = stdinLast(process.argv)
const blankTag = blankTagProblem(argv)

const json = argv.includes("--json")

// A blank tag never reaches the command (argv.ts says why), so it is refused here, as the
// command refuses any other tag the rule does not allow.
if (blankTag !== undefined) fail(json, "InvalidInput", blankTag)
else
  Effect.flatMap(Effect.console, (console) =>
    run(argv).pipe(
      // Without --json, @effect/cli prints what was wrong with the command line itself. With it,
      // that is one JSON object on stderr like every other error, so its printing is held back.
      Effect.withConsole(json ? { ...cliConsole(console), error: () => Effect.void } : cliConsole(console)),
      Effect.catchIf(ValidationError.isValidationError, (error) =>
        Effect.sync(() => (json ? fail(true, "UsageError", usageText(error)) : void (process.exitCode = 2)))
      )
    )
  ).pipe(Effect.provide(NodeContext.layer), NodeRuntime.runMain({ disableErrorReporting: false }))

/** @effect/cli's message for a bad command line, as plain text (no terminal colours). */
function usageText(error: ValidationError.ValidationError): string {
  const text = "error" in error ? HelpDoc.toAnsiText(error.error) : "the command line is not one mem understands"
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-9;]*m/g, "").trim()
}
