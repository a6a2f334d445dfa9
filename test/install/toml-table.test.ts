/**
 * Protects the Codex config.toml edit: memledger's table is added, replaced or taken out as
 * text, and every other byte of the user's file (comments, other tables, odd spacing) stays.
 */
import { Either } from "effect"
import { describe, expect, test } from "vitest"
import { tomlString, withoutTable, withTable } from "../../src/install/toml-table.js"

const PATH = ["mcp_servers", "memledger"]
const ENTRIES: ReadonlyArray<readonly [string, string]> = [
  ["command", tomlString("/usr/bin/node")],
  ["args", '["/opt/mem/bin/mem.js", "mcp"]']
]

const USER_CONFIG = `# my Codex settings
model = "gpt-5"   # the default model
approval_policy = "on-request"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

# shell tweaks below
[shell_environment_policy]
inherit = "core"
`

const install = (text: string) => Either.getOrThrow(withTable(text, PATH, ENTRIES))
const uninstall = (text: string) => Either.getOrThrow(withoutTable(text, PATH))

describe("withTable", () => {
  test("adds the table at the end, after a blank line, and leaves every byte before it", () => {
    const result = install(USER_CONFIG)
    expect(result.startsWith(USER_CONFIG)).toBe(true)
    expect(result.slice(USER_CONFIG.length)).toBe('\n[mcp_servers.memledger]\ncommand = "/usr/bin/node"\nargs = ["/opt/mem/bin/mem.js", "mcp"]\n')
  })

  test("writes a file of its own when there was none", () => {
    expect(install("")).toBe('[mcp_servers.memledger]\ncommand = "/usr/bin/node"\nargs = ["/opt/mem/bin/mem.js", "mcp"]\n')
  })

  test("is idempotent: a second install returns the same text", () => {
    const once = install(USER_CONFIG)
    expect(install(once)).toBe(once)
  })

  test("replaces only its own keys in place, keeping the user's extra keys, sub-tables and what follows", () => {
    const existing = `[mcp_servers.memledger]
command = "/old/node"
startup_timeout_sec = 20
args = [
  "/old/bin/mem.js",
  "mcp",
]

[mcp_servers.memledger.env]
MEMLEDGER_EMBEDDER = "none"

[other]
x = 1
`
    expect(install(existing)).toBe(`[mcp_servers.memledger]
command = "/usr/bin/node"
startup_timeout_sec = 20
args = ["/opt/mem/bin/mem.js", "mcp"]

[mcp_servers.memledger.env]
MEMLEDGER_EMBEDDER = "none"

[other]
x = 1
`)
  })

  test("adds a missing key after the table's last key, not after its sub-tables", () => {
    const existing = '[mcp_servers.memledger]\ncommand = "/usr/bin/node"\n\n[mcp_servers.memledger.env]\nA = "1"\n'
    expect(install(existing)).toBe(
      '[mcp_servers.memledger]\ncommand = "/usr/bin/node"\nargs = ["/opt/mem/bin/mem.js", "mcp"]\n\n[mcp_servers.memledger.env]\nA = "1"\n'
    )
  })

  test("recognises the header however it is quoted and spaced", () => {
    const existing = `[ mcp_servers . "memledger" ]  # ours\ncommand = "/usr/bin/node"\nargs = ["/opt/mem/bin/mem.js", "mcp"]\n`
    expect(install(existing)).toBe(existing)
  })

  test("never takes a bracketed line inside a multi-line string or array for a header", () => {
    const tricky = `notes = """
[mcp_servers.memledger]
not a table
"""
matrix = [
  [1],
  [2]
]
`
    const result = install(tricky)
    expect(result.startsWith(tricky)).toBe(true)
    expect(uninstall(result)).toBe(tricky)
  })

  test("keeps Windows line endings", () => {
    const crlf = 'model = "gpt-5"\r\n'
    expect(install(crlf)).toBe('model = "gpt-5"\r\n\r\n[mcp_servers.memledger]\r\ncommand = "/usr/bin/node"\r\nargs = ["/opt/mem/bin/mem.js", "mcp"]\r\n')
    expect(uninstall(install(crlf))).toBe(crlf)
  })

  test("refuses a memledger server set with dotted keys or an inline table, which a header beside would break", () => {
    expect(Either.isLeft(withTable('[mcp_servers]\nmemledger.command = "x"\n', PATH, ENTRIES))).toBe(true)
    expect(Either.isLeft(withTable('mcp_servers = { docs = { command = "x" } }\n', PATH, ENTRIES))).toBe(true)
    expect(Either.isLeft(withTable('mcp_servers.memledger.command = "x"\n', PATH, ENTRIES))).toBe(true)
    expect(Either.isRight(withTable('[mcp_servers]\ndocs.command = "x"\n', PATH, ENTRIES))).toBe(true)
  })

  test("refuses a file whose string or array never closes", () => {
    expect(withTable('a = """\nnever closed\n', PATH, ENTRIES)).toEqual(Either.left('a multi-line string (""") is never closed'))
    expect(withTable("a = [1,\n", PATH, ENTRIES)).toEqual(Either.left("an array or inline table is never closed"))
  })
})

describe("withoutTable", () => {
  test("gives back the user's file byte for byte", () => {
    expect(uninstall(install(USER_CONFIG))).toBe(USER_CONFIG)
    expect(uninstall(install(""))).toBe("")
  })

  test("takes the table out from between other tables, with its sub-tables, leaving the comments of the next one", () => {
    const before = "[a]\nx = 1\n"
    const after = "# about b\n[b]\ny = 2\n"
    const withOurs = `${before}\n[mcp_servers.memledger]\ncommand = "n"\n\n[mcp_servers.memledger.env]\nK = "v"\n\n${after}`
    expect(uninstall(withOurs)).toBe(`${before}\n${after}`)
  })

  test("leaves a file without the table as it is", () => {
    expect(uninstall(USER_CONFIG)).toBe(USER_CONFIG)
  })
})

test("tomlString escapes what TOML requires, DEL included", () => {
  expect(tomlString('C:\\Program Files\\node "x"\u007f')).toBe('"C:\\\\Program Files\\\\node \\"x\\"\\u007F"')
})
