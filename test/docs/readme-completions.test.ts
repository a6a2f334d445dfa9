/**
 * The README says how to get shell completions; the bash line it gives is run here in a real
 * bash, and completing a command name then offers the command.
 */
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"
import { mem, MEM_BIN } from "../support/cli.js"

const completionLines = (): string[] => {
  const block = /<!-- completions:start -->\s*```sh\n([\s\S]*?)```\s*<!-- completions:end -->/.exec(readFileSync("README.md", "utf8"))?.[1]
  if (block === undefined) throw new Error("README.md has no completions block")
  return block.trim().split("\n")
}

it("gives a line for bash, zsh and fish, each generating that shell's script", () => {
  const lines = completionLines()
  for (const shell of ["bash", "zsh", "fish"]) {
    expect(lines.some((line) => line.includes(`mem --completions ${shell}`)), shell).toBe(true)
    const script = mem(["--completions", shell])
    expect(script.code).toBe(0)
    expect(script.stdout.length).toBeGreaterThan(100)
  }
})

it("its bash line, run in bash, completes 'mem sea' to search and 'mem search --pro' to --project", () => {
  const line = completionLines().find((l) => l.includes("--completions bash"))!.replace(/\s+#.*$/, "")
  const script = [
    `mem() { node ${JSON.stringify(MEM_BIN)} "$@"; }`,
    line,
    `COMP_WORDS=(mem sea); COMP_CWORD=1; _mem_bash_completions mem; echo "\${COMPREPLY[*]}"`,
    `COMP_WORDS=(mem search --pro); COMP_CWORD=2; _mem_bash_completions mem; echo "\${COMPREPLY[*]}"`
  ].join("\n")
  const result = spawnSync("bash", ["-c", script], { encoding: "utf8" })
  expect(result.stderr).toBe("")
  expect(result.stdout.split("\n").slice(0, 2)).toEqual(["search", "--project"])
})
