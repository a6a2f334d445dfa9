/**
 * Lessons from a session as Claude Code runs the hooks: real `mem hook` processes fed the JSON
 * of PostToolUse and PostToolUseFailure (fields as the hooks reference and the Agent SDK's
 * PostToolUseFailureHookInput give them: tool_use_id, error, is_interrupt), then Stop.
 */
import { join } from "node:path"
import { expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"

const setup = () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const run = memAt(db)
  const base = { session_id: "s-lessons", transcript_path: join(dir, "none.jsonl"), cwd: dir, permission_mode: "default" }
  const hook = (event: string, input: Record<string, unknown>) => mem(["--db", db, "hook", event], { input: JSON.stringify({ ...base, ...input }) })
  let n = 0
  const failed = (command: string, error: string, interrupted = false) =>
    hook("post-tool-use-failure", { hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command, description: "" }, tool_use_id: `toolu_${n++}`, error, is_interrupt: interrupted })
  const worked = (command: string, stdout = "") =>
    hook("post-tool-use", { hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: `toolu_${n++}`, tool_response: { stdout, stderr: "", interrupted: false } })
  const stop = () => hook("stop", { hook_event_name: "Stop", stop_hook_active: false })
  return { run, failed, worked, stop }
}

const ORIGIN = "claude-code:session/s-lessons"

it("keeps a failing command and its correction as a tentative troubleshooting memory of the session, once", () => {
  const { run, failed, worked, stop } = setup()
  expect(failed("git push", "Exit code 128\nfatal: The current branch feature has no upstream branch.").code).toBe(0)
  worked("git status")
  worked("git push -u origin feature")
  expect(stop().code).toBe(0)
  const [lesson, ...others] = run("review", "--json").json() as Array<Record<string, unknown>>
  expect(others).toEqual([])
  expect(lesson).toMatchObject({
    content: "`git push` fails with fatal: The current branch feature has no upstream branch.; `git push -u origin feature` works.",
    category: "troubleshooting",
    source: "observed",
    status: "tentative",
    origin: ORIGIN
  })
  // Another turn end, with the same commands in the state: nothing more in the log.
  const events = run("log", "--json").json().length
  stop()
  expect(run("log", "--json").json()).toHaveLength(events)
})

it("keeps nothing from a command the user interrupted, and a test command run three times becomes a command memory", () => {
  const { run, failed, worked, stop } = setup()
  failed("make deploy", "Interrupted by user", true)
  worked("make deploy ENV=prod")
  for (let i = 0; i < 3; i++) worked("npx vitest run", " Test Files  1 passed (1)\n      Tests  4 passed (4)\n")
  stop()
  expect(run("review", "--json").json()).toEqual([
    expect.objectContaining({ content: "Run the tests with `npx vitest run`.", category: "command", status: "tentative", origin: ORIGIN })
  ])
})

it("stores no secret from a command, and forget-conversation takes the lesson back while undo restores it", () => {
  const { run, failed, worked, stop } = setup()
  const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
  failed(`curl -H "Authorization: token ${secret}" https://api.example.com/v1/repos`, "curl: (22) The requested URL returned error: 404")
  worked(`curl -H "Authorization: token ${secret}" https://api.example.com/v3/repos`)
  stop()
  const log = JSON.stringify(run("log", "--json").json())
  expect(log).toContain("fails with curl: (22)")
  expect(log).not.toContain(secret)
  const [lesson] = run("review", "--json").json() as Array<{ id: string }>
  expect(run("forget-conversation", ORIGIN).code).toBe(0)
  expect(run("list", "--json").json()).toEqual([])
  expect(run("forget-conversation", ORIGIN, "--undo").code).toBe(0)
  expect(run("list", "--json").json()).toEqual([expect.objectContaining({ id: lesson!.id, category: "troubleshooting" })])
})
