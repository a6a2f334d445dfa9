/**
 * docs/mcp.md's client configurations are read by editors, not by people: each one must parse
 * and must start exactly `mem mcp`, the command the rest of this suite runs.
 */
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"

const doc = readFileSync("docs/mcp.md", "utf8")
const blocks = (language: string) => [...doc.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!)

/** Claude Code, Cursor and Windsurf say `command` and `args`; OpenCode one `command` array. */
interface ClientConfig {
  readonly mcpServers?: Record<string, { readonly command: string; readonly args?: string[] }>
  readonly mcp?: Record<string, { readonly command: string[]; readonly type: string }>
}

const commandLine = (config: ClientConfig): string[] => {
  const server = config.mcpServers?.["memledger"] ?? config.mcp?.["memledger"]
  if (server === undefined) throw new Error(`no memledger server in ${JSON.stringify(config)}`)
  return Array.isArray(server.command) ? server.command : [server.command, ...("args" in server ? (server.args ?? []) : [])]
}

it("every JSON configuration parses and starts `mem mcp`", () => {
  const configs = blocks("json").map((text) => JSON.parse(text) as ClientConfig)
  expect(configs.length).toBe(4)
  for (const config of configs) expect(commandLine(config)).toEqual(["mem", "mcp"])
  expect(configs.find((c) => c.mcp)?.mcp?.["memledger"]?.type).toBe("local")
})

it("the Codex table and the add commands start `mem mcp`", () => {
  const [toml] = blocks("toml")
  expect(toml).toMatch(/^\[mcp_servers\.memledger\]\ncommand = "mem"\nargs = \["mcp"\]\n$/)
  const adds = doc.match(/(claude|codex) mcp add [^`\n]*-- [^`\n]*/g) ?? []
  expect(adds.length).toBe(2)
  for (const add of adds) expect(add.split(" -- ")[1]?.trim()).toBe("mem mcp")
})
