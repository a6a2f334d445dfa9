/**
 * Claude Code: the MCP server (user scope: top-level `mcpServers` of ~/.claude.json, which is
 * where `claude mcp add --scope user` puts it; project scope: .mcp.json), lifecycle hooks in
 * settings.json, six slash commands and a skill.
 */
import { join } from "node:path"
import type { FileEdit } from "../file-edit.js"
import { withHooks, withoutHooks, type HookSpec } from "../hook-entries.js"
import { jsonEdit } from "../json-document.js"
import { withEntry, withoutEntry } from "../json-entries.js"
import { hookCommand, isMemledgerHook, mcpServerArgv, type HookEvent, type Launcher } from "../launcher.js"
import type { InstallContext, Target } from "../target.js"
import { skillFile } from "../texts/agent-guide.js"
import { SLASH_COMMANDS, slashCommandFile } from "../texts/claude-commands.js"
import { ownedFileEdit } from "../text-edits.js"

/** Hooks must answer within 2 s; this is only the ceiling after which Claude Code stops waiting. */
const HOOK_TIMEOUT_SECONDS = 5

/**
 * No PreCompact hook: Claude Code documents no context output for it, and SessionStart with
 * source `compact` injects the index once the compacted window is built (docs/hooks.md).
 *
 * PostToolUse runs in the background (`async`, Claude Code's hooks reference, "Run hooks in
 * the background"): it runs after every shell command and prints nothing, so the agent need
 * not wait for it. PostToolUseFailure is its twin for a command that failed (Claude Code sends
 * it in place of PostToolUse): a failure and the command that then worked make a lesson.
 * Stop and SessionEnd print nothing either, but are waited for: Claude Code kills an async hook
 * still running when a `claude -p` session ends (the same section), which would lose the turn's
 * outcomes, and an async Stop could run beside the next or SessionEnd, both giving a memory the
 * outcome that each gives once.
 */
const HOOKS: ReadonlyArray<{ readonly event: string; readonly matcher?: string; readonly run: HookEvent; readonly async?: true }> = [
  { event: "SessionStart", matcher: "startup|resume|clear|compact", run: "session-start" },
  { event: "UserPromptSubmit", run: "user-prompt-submit" },
  { event: "PostToolUse", matcher: "Bash", run: "post-tool-use", async: true },
  { event: "PostToolUseFailure", matcher: "Bash", run: "post-tool-use-failure", async: true },
  { event: "Stop", run: "stop" },
  { event: "SessionEnd", run: "session-end" }
]

export const claudeCode: Target = {
  name: "claude-code",
  scopes: ["user", "project"],
  next: "Restart Claude Code (or run /mcp) to connect to memledger; /recall, /remember and the other commands are ready.",
  edits: (context) => {
    const user = context.scope === "user"
    const folder = join(user ? context.home : context.cwd, ".claude")
    const mcp = user ? join(context.home, ".claude.json") : join(context.cwd, ".mcp.json")
    return [
      jsonEdit(mcp, { install: withEntry(["mcpServers"], "memledger", mcpServer(context.launcher)), uninstall: withoutEntry(["mcpServers"], "memledger") }),
      jsonEdit(join(folder, "settings.json"), { install: withHooks(hookSpecs(context), isMemledgerHook), uninstall: withoutHooks(isMemledgerHook) }),
      ...SLASH_COMMANDS.map((command): FileEdit => ownedFileEdit(join(folder, "commands", `${command.name}.md`), slashCommandFile(command))),
      ownedFileEdit(join(folder, "skills", "memledger", "SKILL.md"), skillFile())
    ]
  }
}

const mcpServer = (launcher: Launcher) => {
  const [command, ...args] = mcpServerArgv(launcher)
  return { type: "stdio", command: command!, args }
}

const hookSpecs = (context: InstallContext): ReadonlyArray<HookSpec> =>
  HOOKS.map((hook) => ({
    event: hook.event,
    ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
    command: hookCommand(context.launcher, hook.run),
    timeout: HOOK_TIMEOUT_SECONDS,
    ...(hook.async === undefined ? {} : { async: hook.async })
  }))
