/**
 * How an agent starts memledger. In the user's own settings: this very node binary running this
 * package's bin/mem.js, both by absolute path, so the registered commands work without a global
 * install and whatever PATH the agent starts them with. In a project's files, which a team
 * commits: `mem` as found on the PATH, so that they hold no path of one person's machine.
 */
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Either } from "effect"
import { InstallIoFailed } from "./errors.js"
import { HOOK_EVENTS, type HookEvent } from "../hooks/hook-input.js"
import { shellCommand } from "./shell.js"

export type Launcher = AbsoluteLauncher | PathLauncher

export interface AbsoluteLauncher {
  /** The node executable, absolute. */
  readonly node: string
  /** This package's bin/mem.js, absolute. */
  readonly script: string
  /** The store the registered commands use, absolute; absent: their own default. */
  readonly db?: string
}

/** `mem` as the PATH finds it. */
export interface PathLauncher {
  readonly onPath: true
  readonly db?: string
}

export const onPath = (db: string | undefined): PathLauncher => ({ onPath: true, ...(db === undefined ? {} : { db }) })

/** The words that start mem. */
const startOf = (launcher: Launcher): ReadonlyArray<string> => ("onPath" in launcher ? ["mem"] : [launcher.node, launcher.script])

export { HOOK_EVENTS, type HookEvent }

/** The MCP server as a command and its arguments, for configs that take them apart. */
export const mcpServerArgv = (launcher: Launcher): ReadonlyArray<string> => [...startOf(launcher), ...dbArgs(launcher), "mcp"]

/**
 * A hook as one shell command line (every agent runs hook commands through a shell). `agent`
 * names the agent in the origin of what the hook records; `mem hook` assumes claude-code.
 */
export const hookCommand = (launcher: Launcher, event: HookEvent, agent?: string): string =>
  shellCommand([...startOf(launcher), ...dbArgs(launcher), "hook", event, ...(agent === undefined ? [] : ["--agent", agent])])

const dbArgs = (launcher: Launcher): ReadonlyArray<string> => (launcher.db === undefined ? [] : ["--db", launcher.db])

const SHELL_WORD = String.raw`(?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s'"\\])+`
const MEMLEDGER_HOOK = new RegExp(
  String.raw`(?:^|[\s/'"])mem(?:\.js)?['"]?\s+(?:--db(?:\s+|=)${SHELL_WORD}\s+)?hook\s+(?:${HOOK_EVENTS.join("|")})(?=$|[\s;|&)'"])`
)

/**
 * Whether a hook command is memledger's: `mem hook EVENT` or `.../mem.js [--db PATH] hook EVENT`,
 * however the paths are quoted. This is how uninstall finds exactly what install added, and
 * how a second install replaces it instead of adding another.
 */
export const isMemledgerHook = (command: string): boolean => MEMLEDGER_HOOK.test(command)

/**
 * Finds bin/mem.js from the running module: in the bundle (dist/mem.cjs), the compiled tree
 * (dist/install/) and the sources under test (src/install/), it is the package root's bin/mem.js,
 * at a different depth each time, so walk up to the package named memledger.
 */
export const findLauncher = (moduleUrl: string, db: string | undefined): Either.Either<AbsoluteLauncher, InstallIoFailed> => {
  let dir = dirname(fileURLToPath(moduleUrl))
  for (;;) {
    const script = join(dir, "bin", "mem.js")
    if (existsSync(script) && packageName(join(dir, "package.json")) === "memledger") {
      return Either.right({ node: process.execPath, script, ...(db === undefined ? {} : { db }) })
    }
    const parent = dirname(dir)
    if (parent === dir) return Either.left(new InstallIoFailed({ path: fileURLToPath(moduleUrl), reason: "cannot find memledger's bin/mem.js above this module" }))
    dir = parent
  }
}

const packageName = (path: string): string | undefined => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"))
    return typeof parsed === "object" && parsed !== null && "name" in parsed && typeof parsed.name === "string" ? parsed.name : undefined
  } catch {
    return undefined
  }
}
