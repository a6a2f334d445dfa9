/** The `mem` command line: parse, run one command against the store, exit 0, 1 or 2. */
import { Command, HelpDoc, ValidationError } from "@effect/cli"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Effect } from "effect"
import { blankTagProblem, commandLineProblem, stdinLast } from "./argv.js"
import { cliConsole, withoutColours, writeRendered } from "./cli-console.js"
import { cli, helpTree } from "./command-tree.js"
import { helpRequest, helpText } from "./help.js"
import { fail } from "./output.js"
import { VERSION } from "../../version.js"

const run = Command.run(cli, { name: "memledger", version: VERSION })

const argv = stdinLast(process.argv)
const blankTag = blankTagProblem(argv)
const commandProblem = commandLineProblem(argv.slice(2), helpTree.children.map((command) => command.name))
const help = helpRequest(argv.slice(2), helpTree)

const json = argv.includes("--json")

// A blank tag never reaches the command (argv.ts says why), so it is refused here, as the
// command refuses any other tag the rule does not allow.
if (blankTag !== undefined) fail(json, "InvalidInput", blankTag)
else if (commandProblem !== undefined) fail(json, "UsageError", commandProblem)
else if (help !== undefined) writeRendered(process.stdout, helpText(helpTree, help, VERSION))
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
  return withoutColours("error" in error ? HelpDoc.toAnsiText(error.error) : "the command line is not one mem understands").trim()
}
