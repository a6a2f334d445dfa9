/** An agent memledger can be installed into: which files it edits, per scope. */
import type { FileEdit } from "./file-edit.js"
import type { Launcher } from "./launcher.js"

export type Scope = "user" | "project"

export interface InstallContext {
  readonly scope: Scope
  /** The user's home (HOME), where user-scope files live. */
  readonly home: string
  /** The project folder, for project-scope files. */
  readonly cwd: string
  readonly launcher: Launcher
  /** The environment variables agents read to move their own folders (CODEX_HOME, XDG_CONFIG_HOME). */
  readonly env: Readonly<Record<string, string | undefined>>
}

export interface Target {
  readonly name: string
  readonly scopes: ReadonlyArray<Scope>
  readonly edits: (context: InstallContext) => ReadonlyArray<FileEdit>
  /** What to do after installing, for the person (restart the agent, trust a hook). */
  readonly next: string
}

/** The folder an agent keeps its files in at this scope: under the home, or the project. */
export const baseOf = (context: InstallContext): string => (context.scope === "user" ? context.home : context.cwd)

/** An environment variable's value, or undefined when unset or empty. */
export const envPath = (context: InstallContext, name: string): string | undefined => {
  const value = context.env[name]
  return value === undefined || value === "" ? undefined : value
}
