/**
 * The `mem hook EVENT` process, bundled apart from the CLI (dist/hook.cjs) so that a hook loads
 * neither @effect/cli nor the commands it never runs. bin/mem.js runs this bundle first when the
 * command line has the word `hook`; a command line that is not a plain hook call is left to the
 * full CLI, which bin/mem.js then runs: `handled` says which.
 */
import { hookCommandOf } from "./hook-command.js"
import { runHookCommand } from "./run-hook.js"

const command = hookCommandOf(process.argv.slice(2))

export const handled = command !== undefined

if (command !== undefined) void runHookCommand(command)
