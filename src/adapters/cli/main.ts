/** The `mem` command line: parse, run one command against the store, exit 0, 1 or 2. */
import { Command, ValidationError } from "@effect/cli"
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

// A blank tag never reaches the command (argv.ts says why), so it is refused here, as the
// command refuses any other tag the rule does not allow.
if (blankTag !== undefined) fail(argv.includes("--json"), "InvalidInput", blankTag)
else run(argv).pipe(
  // @effect/cli has already printed what was wrong with the command line.
  Effect.catchIf(ValidationError.isValidationError, () => Effect.sync(() => void (process.exitCode = 2))),
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({ disableErrorReporting: false })
)
