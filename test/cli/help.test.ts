/**
 * What `mem` says about itself: every command's help describes every option and argument in
 * its own words, under a usage line a person can type; colours only on a terminal that wants
 * them; and a mistyped command or a misplaced option is answered with what to type instead.
 */
import { describe, expect, it } from "vitest"
import { mem, MEM_BIN } from "../support/cli.js"
import { onTerminal, shellQuote } from "../support/terminal.js"

/** Every command, as typed after `mem`. */
const COMMANDS = [
  "add", "import", "search", "why", "context", "show", "list", "edit", "outcome", "confirm", "supersede", "forget", "restore",
  "forget-conversation", "conversations", "log", "export", "replay", "rebuild", "verify", "purge", "backup", "backup restore", "stats", "doctor",
  "tasks", "tasks sync", "review", "capture", "capture extract", "review accept", "review reject", "hook", "mcp", "serve", "token add", "token list", "token revoke", "ui", "install", "uninstall"
]

/** What @effect/cli says of a value's type or of every option alike, which describes no option in particular. */
const GENERIC = [
  /^A user-defined piece of text\.$/,
  /^An integer\.$/,
  /^A true or false value\.$/,
  /^This setting is optional\./,
  /^This (option|argument) (may|must) be repeated/,
  /^One of the following: /
]

/** The items of a help text's ARGUMENTS and OPTIONS sections, each with its paragraphs. */
const items = (help: string): Array<{ item: string; paragraphs: string[] }> => {
  const found: Array<{ item: string; paragraphs: string[] }> = []
  let section = ""
  for (const line of help.split("\n")) {
    if (/^[A-Z]+$/.test(line)) section = line
    else if (section !== "ARGUMENTS" && section !== "OPTIONS") continue
    else if (/^\S/.test(line)) found.push({ item: line, paragraphs: [] })
    else if (line.trim() !== "") found.at(-1)?.paragraphs.push(line.trim())
  }
  return found
}

describe("each command's help", () => {
  it.each(COMMANDS)("mem %s --help describes every option and argument, under a usage line that starts with mem", (command) => {
    const result = mem([...command.split(" "), "--help"])
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(new RegExp(`^\\$ mem ${command}( |$)`, "m"))
    const described = items(result.stdout)
    expect(described.length).toBeGreaterThan(0)
    for (const { item, paragraphs } of described) {
      expect(paragraphs.filter((p) => /^(A user-defined piece of text|An integer|A true or false value)\.$/.test(p)), item).toEqual([])
      expect(paragraphs.filter((p) => !GENERIC.some((g) => g.test(p))), `${command}: ${item} has no description`).not.toEqual([])
    }
  })

  it("mem --help, and a bare mem, list the commands under '$ mem'", () => {
    for (const args of [["--help"], []]) {
      const result = mem(args)
      expect(result.code).toBe(0)
      expect(result.stdout).toMatch(/^\$ mem /m)
      expect(result.stdout).not.toMatch(/A user-defined piece of text/)
      for (const command of ["add", "search", "forget-conversation", "uninstall"]) expect(result.stdout).toContain(command)
    }
  })
})

describe("colours", () => {
  const help = `node ${shellQuote(MEM_BIN)} add --help`

  it("appear in help on a terminal, and never in a pipe", () => {
    expect(onTerminal(help).text).toContain("\x1b[")
    expect(mem(["add", "--help"]).stdout).not.toContain("\x1b[")
    expect(mem(["add"]).stderr).not.toContain("\x1b[")
  })

  it("are left out on a terminal when NO_COLOR is set", () => {
    const screen = onTerminal(help, { NO_COLOR: "1" })
    expect(screen.code).toBe(0)
    expect(screen.text).toContain("$ mem add")
    expect(screen.text).not.toContain("\x1b[")
  })
})

describe("a mistyped command line", () => {
  it("an unknown command is a usage error that suggests the command meant", () => {
    const result = mem(["serch", "deploy"])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/^mem: 'serch' is not a mem command; did you mean 'search'\?/)
    expect(result.stderr.trim().split("\n")).toHaveLength(1)
    expect(mem(["frobnicate"]).stderr).toMatch(/^mem: 'frobnicate' is not a mem command; mem --help lists them/)
  })

  it("an option before the command says where it goes", () => {
    const result = mem(["--json", "stats"])
    expect(result.code).toBe(2)
    expect(JSON.parse(result.stderr)).toEqual({ error: "UsageError", message: expect.stringContaining("--json goes after the command name: mem stats --json") })
    const human = mem(["-p", "github.com/acme/app", "list"])
    expect(human.code).toBe(2)
    expect(human.stderr).toMatch(/^mem: -p goes after the command name: mem list -p/)
  })

  it("--db before the command and built-in flags are still fine", () => {
    expect(mem(["--db", "/nonexistent-folder/x.db", "--help"]).code).toBe(0)
    expect(mem(["--version"]).code).toBe(0)
  })
})
