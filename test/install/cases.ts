/**
 * Every agent and scope `mem install` supports, with a user's existing files for each: their
 * own servers, hooks, unknown keys and comments, which install must keep.
 */
export interface InstallCase {
  readonly target: string
  readonly scope: "user" | "project"
  /** The files install writes (`~/` home, `./` project). */
  readonly files: ReadonlyArray<string>
  /** Files a user already has at some of those paths, and elsewhere. */
  readonly existing: Readonly<Record<string, string>>
  /** Where the MCP server is registered, and how to read its command line from that file's text. */
  readonly mcp: { readonly file: string; readonly argv: (text: string) => ReadonlyArray<string> }
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`
const stdio = (key: string) => (text: string) => {
  const server = JSON.parse(text)[key].memledger
  return [server.command, ...server.args]
}

const claudeSettings = json({
  model: "opus",
  permissions: { allow: ["Bash(npm test)"] },
  hooks: {
    SessionStart: [{ matcher: "startup", hooks: [{ type: "command", command: "echo welcome" }] }],
    PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh", timeout: 10 }] }]
  }
})

const claudeCommands = ["remember", "recall", "why", "outcome", "forget", "forget-conversation"]

const claudeCode = (scope: "user" | "project"): InstallCase => {
  const base = scope === "user" ? "~/" : "./"
  const mcpFile = scope === "user" ? "~/.claude.json" : "./.mcp.json"
  return {
    target: "claude-code",
    scope,
    files: [mcpFile, `${base}.claude/settings.json`, ...claudeCommands.map((c) => `${base}.claude/commands/${c}.md`), `${base}.claude/skills/memledger/SKILL.md`],
    existing: {
      [mcpFile]: json({ numStartups: 12, mcpServers: { github: { type: "stdio", command: "gh-mcp", args: [] } }, projects: { "/work": { allowedTools: [] } } }),
      [`${base}.claude/settings.json`]: claudeSettings,
      [`${base}.claude/commands/deploy.md`]: "---\ndescription: Deploy\n---\nDeploy the app.\n",
      [`${base}.claude/skills/testing/SKILL.md`]: "---\nname: testing\ndescription: How we test\n---\nRun npm test.\n"
    },
    mcp: { file: mcpFile, argv: stdio("mcpServers") }
  }
}

const codexConfig = `# Codex settings
model = "gpt-5-codex"
approval_policy = "on-request"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]   # documentation lookups

[mcp_servers.docs.env]
DOCS_TOKEN = "t"

# sandboxing
[sandbox_workspace_write]
network_access = false
`

const codex = (scope: "user" | "project"): InstallCase => {
  const folder = scope === "user" ? "~/.codex" : "./.codex"
  return {
    target: "codex",
    scope,
    files: [`${folder}/config.toml`, `${folder}/hooks.json`, scope === "user" ? "~/.codex/AGENTS.md" : "./AGENTS.md"],
    existing: {
      [`${folder}/config.toml`]: codexConfig,
      [`${folder}/hooks.json`]: json({ hooks: { Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }] } }),
      [scope === "user" ? "~/.codex/AGENTS.md" : "./AGENTS.md"]: "# Working agreements\n\n- Prefer small commits.\n"
    },
    mcp: {
      file: `${folder}/config.toml`,
      argv: (text) => {
        const table = text.slice(text.indexOf("[mcp_servers.memledger]"))
        const command = JSON.parse(/^command = (.*)$/m.exec(table)![1]!)
        const args = JSON.parse(/^args = (.*)$/m.exec(table)![1]!)
        return [command, ...args]
      }
    }
  }
}

const mcpOnly = (
  target: string,
  scope: "user" | "project",
  file: string,
  key: string,
  existing: object,
  argv: (text: string) => ReadonlyArray<string> = stdio(key)
): InstallCase => ({
  target,
  scope,
  files: [file],
  existing: { [file]: json(existing) },
  mcp: { file, argv }
})

const opencodeArgv = (text: string) => JSON.parse(text).mcp.memledger.command as ReadonlyArray<string>

export const CASES: ReadonlyArray<InstallCase> = [
  claudeCode("user"),
  claudeCode("project"),
  codex("user"),
  codex("project"),
  mcpOnly("cursor", "user", "~/.cursor/mcp.json", "mcpServers", { mcpServers: { linear: { url: "https://mcp.linear.app/sse" } } }),
  mcpOnly("cursor", "project", "./.cursor/mcp.json", "mcpServers", { mcpServers: { db: { command: "db-mcp", env: { URL: "x" } } } }),
  mcpOnly("windsurf", "user", "~/.codeium/windsurf/mcp_config.json", "mcpServers", { mcpServers: { git: { command: "uvx", args: ["mcp-server-git"], disabled: false } } }),
  mcpOnly(
    "opencode",
    "user",
    "~/.config/opencode/opencode.json",
    "mcp",
    { $schema: "https://opencode.ai/config.json", theme: "tokyonight", mcp: { fs: { type: "local", command: ["fs-mcp"], enabled: true } } },
    opencodeArgv
  ),
  mcpOnly("opencode", "project", "./opencode.json", "mcp", { $schema: "https://opencode.ai/config.json", model: "anthropic/claude" }, opencodeArgv),
  mcpOnly("gemini", "user", "~/.gemini/settings.json", "mcpServers", { theme: "Dracula", mcpServers: { git: { command: "uvx", args: ["mcp-server-git"] } } }),
  mcpOnly("gemini", "project", "./.gemini/settings.json", "mcpServers", { contextFileName: "GEMINI.md" })
]
