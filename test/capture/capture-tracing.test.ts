/**
 * `mem show` and `mem why` of a captured memory name its source: the prompt, the command pair
 * or the transcript part, redacted as stored; a memory a person added shows none.
 */
import { join } from "node:path"
import { expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "transcripts")
const SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"

it("show and why give a captured rule's prompt, redacted, and a lesson's commands with the transcript they came from", () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const run = memAt(db)
  const prompt = `My token is ${SECRET}, keep it out of logs. From now on, never push to main, open a PR instead.`
  expect(mem(["--db", db, "hook", "user-prompt-submit"], { input: JSON.stringify({ session_id: "s-trace", cwd: dir, prompt }) }).code).toBe(0)
  run("import", "--transcripts", join(FIXTURES, "codex"))
  const plain = run("add", "Deploy with make deploy", "--global", "--json").json().id as string

  const [rule] = (run("list", "--all", "--json").json() as Array<{ id: string; content: string }>).filter((m) => m.content.includes("push to main"))
  const shown = run("show", rule!.id)
  expect(shown.stdout).toContain("captured from a prompt in claude-code:session/s-trace")
  expect(shown.stdout).toContain("From now on, never push to main, open a PR instead.")
  expect(shown.stdout).not.toContain(SECRET)
  expect(run("show", rule!.id, "--json").json().captured).toEqual([expect.objectContaining({ kind: "prompt-rule", origin: "claude-code:session/s-trace" })])

  const why = run("why", "git push upstream branch", "--project", "/home/dev/api")
  expect(why.stdout).toMatch(/captured from a failed command and its correction in codex:session\/019b8e2a-3c4d-7e5f-a6b7-c8d9e0f1a2b3 \(.*\), .*rollout-2026-01-05T12-00-00-.*\.jsonl:/)
  expect(why.stdout).toContain("  > $ git push\n")
  expect(why.stdout).toContain("  > $ git push -u origin main")
  const explained = run("why", "git push upstream branch", "--project", "/home/dev/api", "--json").json() as { results: Array<{ captured?: unknown[] }> }
  expect(explained.results[0]!.captured).toEqual([expect.objectContaining({ kind: "command-pair" })])

  expect(run("show", plain).stdout).not.toContain("captured from")
  expect(run("show", plain, "--json").json()).not.toHaveProperty("captured")
})
