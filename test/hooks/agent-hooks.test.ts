/**
 * The agent hooks as Claude Code runs them: real `mem hook EVENT` processes fed the agent's
 * JSON on stdin, against a real store, with a real transcript file.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"
import { storeStateFolder } from "../../src/hooks/state-folder.js"

const setup = () => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const run = memAt(db)
  const hook = (event: string, input: unknown) => mem(["--db", db, "hook", event], { input: typeof input === "string" ? input : JSON.stringify(input) })
  // A hook's cwd here is a temp folder, not a git checkout: its project is that path, so the
  // memories these tests need in scope are global ones.
  const add = (text: string, ...extra: string[]) => run("add", text, "--global", ...extra, "--json").json().id as string
  return { dir, db, run, hook, add }
}

const context = (stdout: string): string => JSON.parse(stdout).hookSpecificOutput.additionalContext

describe("session-start", () => {
  it("injects the confirmed rules grouped by category, the useful memories and the conversation's origin", () => {
    const { hook, add, dir } = setup()
    add("Always ask before running git push", "-c", "preference")
    add("Use pnpm, never npm, in this repository", "-c", "convention")
    add("The staging database is reset every Sunday night", "-c", "gotcha")
    const result = hook("session-start", { session_id: "s1", cwd: dir, source: "startup", hook_event_name: "SessionStart" })
    expect(result.code).toBe(0)
    const parsed = JSON.parse(result.stdout)
    expect(parsed.hookSpecificOutput.hookEventName).toBe("SessionStart")
    const text: string = parsed.hookSpecificOutput.additionalContext
    expect(text).toContain("Conventions:")
    expect(text).toContain("Preferences:")
    expect(text.indexOf("Conventions:")).toBeLessThan(text.indexOf("staging database"))
    expect(text).toContain('"claude-code:session/s1"')
    expect(text).toMatch(/take precedence/)
  })
})

describe("user-prompt-submit", () => {
  it("adds the memories that answer the prompt, nothing when none does, and a notice when another session wrote", () => {
    const { hook, add, run, dir } = setup()
    add("Deploy the web app with fly deploy --strategy bluegreen", "-c", "command")
    hook("session-start", { session_id: "s2", cwd: dir })

    const relevant = hook("user-prompt-submit", { session_id: "s2", cwd: dir, prompt: "how do we deploy the web app?" })
    expect(relevant.code).toBe(0)
    expect(context(relevant.stdout)).toContain("fly deploy")
    expect(context(relevant.stdout)).not.toContain("memory changed")

    const unrelated = hook("user-prompt-submit", { session_id: "s2", cwd: dir, prompt: "rename the variable in the kubernetes helm chart" })
    expect(unrelated.stdout).toBe("")

    run("add", "Helm charts live in deploy/charts", "--global", "--origin", "codex:session/other")
    const news = hook("user-prompt-submit", { session_id: "s2", cwd: dir, prompt: "rename the variable in the kubernetes helm chart" })
    expect(context(news.stdout)).toMatch(/memory changed since this session last looked \(1 change/)
  })

  it("keeps a rule the person states as an observed, tentative memory of the session, once, and a later session's restatement confirms it", () => {
    const { hook, run, dir } = setup()
    const prompt = "Fix the flaky checkout test. From now on, never push to main, open a PR instead."
    for (let i = 0; i < 2; i++) expect(hook("user-prompt-submit", { session_id: "s3", cwd: dir, prompt }).code).toBe(0)
    const [rule, ...others] = run("review", "--json").json() as Array<Record<string, unknown>>
    expect(others).toEqual([])
    expect(rule).toMatchObject({
      content: "From now on, never push to main, open a PR instead.",
      source: "observed",
      status: "tentative",
      origin: "claude-code:session/s3",
      confirmations: 1
    })
    expect(hook("user-prompt-submit", { session_id: "s4", cwd: dir, prompt: "ok. from now on, never push to main, open a PR instead" }).code).toBe(0)
    expect(run("review", "--json").json()).toEqual([])
    expect(run("show", rule!.id as string, "--json").json()).toMatchObject({ status: "confirmed", confirmations: 2 })
    expect(run("forget-conversation", "claude-code:session/s3").code).toBe(0)
    expect(run("list", "--json").json()).toEqual([])
  })

  it("keeps nothing from a prompt that states no rule", () => {
    const { hook, run, dir } = setup()
    hook("user-prompt-submit", { session_id: "s5", cwd: dir, prompt: "Why does the build always fail on CI? Don't change anything yet." })
    expect(run("list", "--all", "--json").json()).toEqual([])
  })
})

describe("user-prompt-submit without a session start", () => {
  it("announces no news on the first prompt, since it has no baseline, and does from then on", () => {
    const { hook, add, dir } = setup()
    add("Helm charts live in deploy/charts", "--origin", "codex:session/other")
    const first = hook("user-prompt-submit", { session_id: "late", cwd: dir, prompt: "rename the kubernetes namespace" })
    expect(first.stdout).toBe("")
    add("Namespaces are named after the team", "--origin", "codex:session/other")
    const second = hook("user-prompt-submit", { session_id: "late", cwd: dir, prompt: "rename the kubernetes namespace" })
    expect(context(second.stdout)).toMatch(/memory changed since this session last looked \(1 change/)
  })
})

describe("outcomes from a session", () => {
  it("gives the latest test verdict to the memories the agent cited or whose command it ran, once, and nothing to memories merely shown", () => {
    const { hook, run, dir } = setup()
    const cited = run("add", "Mock the clock with vi.useFakeTimers in date tests", "--global", "--json").json().id as string
    const shown = run("add", "Date tests live in test/dates", "--global", "--json").json().id as string
    const command = run("add", "Run `npm run test:int` before pushing", "--global", "-c", "command", "--json").json().id as string
    const transcript = join(dir, "transcript.jsonl")
    const line = (text: string) => JSON.stringify({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } })
    writeFileSync(transcript, `${JSON.stringify({ type: "user", message: { content: "fix the date tests" } })}\n${line(`Following memory ${cited.slice(0, 12)}, I will fake the clock.`)}\n`)
    const session = { session_id: "s3", cwd: dir, transcript_path: transcript }

    hook("session-start", session)
    hook("post-tool-use", { ...session, tool_name: "Bash", tool_input: { command: "npm run test:int" }, tool_response: { stdout: "12 passed, 0 failed\n", stderr: "" } })
    expect(hook("stop", session).code).toBe(0)

    const outcomes = (id: string) => run("log", "--memory", id, "--json").json().filter((e: { type: string }) => e.type === "OutcomeRecorded")
    const [recorded] = outcomes(cited)
    expect(recorded.origin).toBe("claude-code:session/s3")
    expect(recorded.payload.outcome).toBe("worked")
    expect(recorded.payload.memoryIds.sort()).toEqual([cited, command].sort())
    expect(outcomes(shown)).toEqual([])

    // Another turn ends: nothing new was used, so nothing more is recorded.
    hook("stop", session)
    expect(outcomes(cited)).toHaveLength(1)
  })

  it("records nothing without a test verdict", () => {
    const { hook, run, dir } = setup()
    const id = run("add", "Use the repository pattern for billing changes", "--global", "--json").json().id as string
    const transcript = join(dir, "t.jsonl")
    writeFileSync(transcript, `${JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: `per ${id.slice(0, 12)}` }] } })}\n`)
    hook("stop", { session_id: "s4", cwd: dir, transcript_path: transcript })
    expect(run("log", "--memory", id, "--json").json().map((e: { type: string }) => e.type)).toEqual(["MemoryAdded"])
  })
})

describe("a hook never fails the session", () => {
  it("prints nothing and exits 0 on input that is not JSON, and logs why", () => {
    const { hook, db } = setup()
    const result = hook("session-start", "this is not json")
    expect(result.code).toBe(0)
    expect(result.stdout).toBe("")
    const log = join(storeStateFolder(db), "hooks.log")
    expect(existsSync(log)).toBe(true)
    expect(readFileSync(log, "utf8")).toContain("session-start")
  })

  it("prints nothing and exits 0 when the store is not a memledger file", () => {
    const dir = tempDir()
    const db = join(dir, "not-ours.db")
    writeFileSync(db, "plain text, not SQLite")
    const result = mem(["--db", db, "hook", "session-start"], { input: JSON.stringify({ session_id: "x", cwd: dir }) })
    expect(result.code).toBe(0)
    expect(result.stdout).toBe("")
    expect(readFileSync(db, "utf8")).toBe("plain text, not SQLite")
  })
})
