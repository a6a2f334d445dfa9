/**
 * Agents that get the MCP server only: one JSON file each, memledger's entry beside the user's
 * own servers. Paths and shapes as each agent documents them (see docs/install.md).
 */
import { join } from "node:path"
import { jsonEdit, type Json } from "../json-document.js"
import { withEntry, withoutEntry } from "../json-entries.js"
import { mcpServerArgv, type Launcher } from "../launcher.js"
import { baseOf, envPath, type InstallContext, type Scope, type Target } from "../target.js"

const mcpOnlyTarget = (spec: {
  readonly name: string
  readonly scopes: ReadonlyArray<Scope>
  readonly file: (context: InstallContext) => string
  readonly containers: ReadonlyArray<string>
  readonly entry: (launcher: Launcher) => Json
  readonly next: string
}): Target => ({
  name: spec.name,
  scopes: spec.scopes,
  next: spec.next,
  edits: (context) => [
    jsonEdit(spec.file(context), {
      install: withEntry(spec.containers, "memledger", spec.entry(context.launcher)),
      uninstall: withoutEntry(spec.containers, "memledger")
    })
  ]
})

/** `{command, args}`: the stdio server shape Cursor, Windsurf and Gemini CLI share. */
const commandAndArgs = (launcher: Launcher): Json => {
  const [command, ...args] = mcpServerArgv(launcher)
  return { command: command!, args }
}

export const cursor = mcpOnlyTarget({
  name: "cursor",
  scopes: ["user", "project"],
  file: (context) => join(baseOf(context), ".cursor", "mcp.json"),
  containers: ["mcpServers"],
  entry: commandAndArgs,
  next: "Restart Cursor, then check that memledger is enabled under MCP in Cursor's settings."
})

export const windsurf = mcpOnlyTarget({
  name: "windsurf",
  scopes: ["user"],
  file: (context) => join(context.home, ".codeium", "windsurf", "mcp_config.json"),
  containers: ["mcpServers"],
  entry: commandAndArgs,
  next: "Refresh the MCP servers in Windsurf's Cascade panel (or restart Windsurf)."
})

export const opencode = mcpOnlyTarget({
  name: "opencode",
  scopes: ["user", "project"],
  file: (context) =>
    context.scope === "project"
      ? join(context.cwd, "opencode.json")
      : join(envPath(context, "XDG_CONFIG_HOME") ?? join(context.home, ".config"), "opencode", "opencode.json"),
  containers: ["mcp"],
  entry: (launcher) => ({ type: "local", command: [...mcpServerArgv(launcher)], enabled: true }),
  next: "Restart opencode; memledger's tools appear beside the built-in ones."
})

export const gemini = mcpOnlyTarget({
  name: "gemini",
  scopes: ["user", "project"],
  file: (context) => join(baseOf(context), ".gemini", "settings.json"),
  containers: ["mcpServers"],
  entry: commandAndArgs,
  next: "Restart Gemini CLI and run /mcp to see memledger connected."
})
