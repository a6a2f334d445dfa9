/**
 * The session docs/tasks.md shows is run for real: each `mem` line's output must be exactly the
 * lines under it, so the documentation cannot drift from the commands. (`bd close` is played by
 * rewriting the issues file, as bd does.)
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, test } from "vitest"
import { mem, tempDir } from "../support/cli.js"
import { beadsProject } from "../support/task-files.js"

const transcript = (): { command: string; output: string }[] => {
  const doc = readFileSync("docs/tasks.md", "utf8")
  const block = /<!-- example:tasks:start -->\s*```console\n([\s\S]*?)```\s*<!-- example:tasks:end -->/.exec(doc)?.[1]
  if (block === undefined) throw new Error("docs/tasks.md has no example:tasks block")
  const steps: { command: string; output: string[] }[] = []
  for (const line of block.trimEnd().split("\n")) {
    if (line.startsWith("$ ")) steps.push({ command: line.slice(2), output: [] })
    else steps.at(-1)!.output.push(line)
  }
  return steps.map((s) => ({ command: s.command, output: s.output.join("\n") }))
}

test("the docs/tasks.md session prints what the page says", () => {
  const project = tempDir("memledger-project-")
  const issues = (status: string) =>
    beadsProject(
      [
        { id: "bd-12", title: "Fix the login redirect", status, updated_at: "2026-02-02T10:00:00Z" },
        { id: "bd-13", title: "Rate-limit the API", status: "open", updated_at: "2026-02-01T10:00:00Z" }
      ],
      "issues.jsonl",
      project
    )
  const env = { HOME: tempDir(), CLAUDE_CODE_TODOS_DIR: "", CLAUDE_CODE_TASK_LIST_ID: "", CLAUDE_CONFIG_DIR: "" }
  const db = join(tempDir(), "m.db")
  const run = (args: string[]) => mem(["--db", db, ...args], { cwd: project, env })
  issues("in_progress")
  run(["add", "After login, redirect to the page the user came from (the next parameter)", "--global"])
  run(["add", "The login redirect must never leave our domain: check next against the allow list", "--global"])
  run(["search", "login redirect"])
  run(["search", "redirect next parameter"])

  const steps = transcript()
  expect(steps.map((s) => s.command)).toEqual(["mem tasks", "bd close bd-12", "mem tasks sync", "mem tasks sync"])
  for (const step of steps) {
    if (step.command === "bd close bd-12") {
      issues("closed")
      continue
    }
    const result = run(step.command.split(" ").slice(1))
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout.trimEnd(), step.command).toBe(step.output)
  }
})
