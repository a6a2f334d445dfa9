/**
 * Codex: the MCP server as a `[mcp_servers.memledger]` table in config.toml, the SessionStart
 * hook in hooks.json (whose command prints the context Codex injects), and a short block in
 * AGENTS.md telling the agent when to use the tools. User scope lives in CODEX_HOME (~/.codex);
 * project scope in the project's .codex/ folder and its AGENTS.md.
 */
import { join } from "node:path"
import { withHooks, withoutHooks } from "../hook-entries.js"
import { jsonEdit } from "../json-document.js"
import { hookCommand, isMemledgerHook, mcpServerArgv } from "../launcher.js"
import { envPath, type InstallContext, type Target } from "../target.js"
import { agentsBlock } from "../texts/agent-guide.js"
import { blockEdit, tomlTableEdit } from "../text-edits.js"
import { tomlString, tomlStringArray } from "../toml-table.js"

const HOOK_TIMEOUT_SECONDS = 5

export const codex: Target = {
  name: "codex",
  scopes: ["user", "project"],
  next: "Start Codex and review the new SessionStart hook when it asks (/hooks) so it can run; /mcp lists memledger.",
  edits: (context) => {
    const folder = codexFolder(context)
    const [command, ...args] = mcpServerArgv(context.launcher)
    const sessionStart = {
      event: "SessionStart",
      matcher: "startup|resume|clear|compact",
      command: hookCommand(context.launcher, "session-start", "codex"),
      timeout: HOOK_TIMEOUT_SECONDS
    }
    return [
      tomlTableEdit(join(folder, "config.toml"), ["mcp_servers", "memledger"], [
        ["command", tomlString(command!)],
        ["args", tomlStringArray(args)]
      ]),
      jsonEdit(join(folder, "hooks.json"), { install: withHooks([sessionStart], isMemledgerHook), uninstall: withoutHooks(isMemledgerHook) }),
      blockEdit(context.scope === "user" ? join(folder, "AGENTS.md") : join(context.cwd, "AGENTS.md"), agentsBlock())
    ]
  }
}

const codexFolder = (context: InstallContext): string =>
  context.scope === "project" ? join(context.cwd, ".codex") : (envPath(context, "CODEX_HOME") ?? join(context.home, ".codex"))
