/**
 * `mem` with MEMLEDGER_URL: real `mem` processes against the REST API on a real local socket
 * (test/support/rest-server.ts, over a real store). The same commands give the same answers,
 * and the same errors with the same exit codes, as against a local file; what the server
 * can't do, what a dead URL and a missing token look like; and what the client sends.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { memAsync } from "../support/cli-async.js"
import { tempDir, type MemRun } from "../support/cli.js"
import { normalizer } from "../support/normalize.js"
import { startRestServer, unusedUrl, type RestServer } from "../support/rest-server.js"

const serve = async (options: { token?: string } = {}): Promise<RestServer> => {
  const server = await startRestServer(options)
  onTestFinished(server.close)
  return server
}

/** A `mem` against the server at `url`, from `cwd`. */
const remoteMem = (url: string, cwd: string, env: Record<string, string> = {}) => (...args: string[]) =>
  memAsync(args, { cwd, env: { MEMLEDGER_URL: url, HOME: cwd, ...env } })
const localMem = (db: string, cwd: string) => (...args: string[]) => memAsync(["--db", db, ...args], { cwd, env: { HOME: cwd } })

/** What a run printed, as one comparable value: the exit code, the JSON on stdout, and the error object (or a notice's text) on stderr. */
const outcomeOf = (run: MemRun) => ({ code: run.code, out: run.stdout ? JSON.parse(run.stdout) : null, err: run.stderr ? jsonOrText(run.stderr) : null })

const jsonOrText = (text: string) => (text.startsWith("{") ? JSON.parse(text) : text)

/** A session of commands; each step may use the ids earlier steps printed. */
const session = async (mem: (...args: string[]) => Promise<MemRun>) => {
  const results: ReturnType<typeof outcomeOf>[] = []
  const step = async (...args: string[]) => {
    const result = outcomeOf(await mem(...args, "--json"))
    results.push(result)
    return result.out
  }
  const deploy = (await step("add", "Deploy with make deploy ENV=prod", "-c", "command", "-t", "deploy")).id
  const english = (await step("add", "Always answer in English", "-c", "preference", "--global")).id
  const tests = (await step("add", "Run the integration tests with npm run test:int before pushing", "-c", "convention")).id
  await step("add", "Before pushing, run integration tests using npm run test:int")
  const lookAlike = (await step("add", "Before pushing, run integration tests using npm run test:int", "--distinct-from", tests)).id
  await step("add", "deploy with make deploy env=prod")
  await step("outcome", deploy, "worked", "--origin", "claude-code:session/a", "--task", "T-1")
  await step("outcome", deploy, english, "failed", "--origin", "codex:thread/x")
  await step("search", "how do I deploy")
  await step("why", "deploy to production")
  await step("context", "--query", "deploy", "--budget", "800")
  await step("show", deploy)
  await step("edit", english, "--content", "Always answer in British English", "-t", "lang")
  await step("confirm", english)
  await step("supersede", tests, lookAlike)
  const next = (await step("add", "Deploy with just deploy ENV=prod", "-c", "command", "--supersedes", deploy)).id
  await step("forget", english, "--reason", "wrong")
  await step("list", "--all")
  await step("restore", english)
  await step("forget-conversation", "codex:thread/x")
  await step("conversations")
  await step("forget-conversation", "codex:thread/x", "--undo")
  await step("list", "-l", "2")
  await step("log")
  await step("log", "--memory", deploy)
  await step("log", "--since", "3", "-l", "2")
  await step("stats")
  // Cues: written, learned from a conversation's missed search before a worked outcome, dropped.
  const flaky = (await step("add", "Flaky e2e suite: rerun playwright with --retries 2", "--global", "--cue", "why do the e2e tests fail?")).id
  await step("search", "the browser checks keep failing at random", "--origin", "claude-code:session/c")
  await step("outcome", flaky, "worked", "--origin", "claude-code:session/c")
  await step("search", "the browser checks keep failing at random", "--also", "playwright retries")
  await step("why", "the browser checks keep failing at random", "--also", "playwright retries")
  await step("context", "--query", "e2e tests fail", "--also", "playwright")
  await step("cues", flaky)
  await step("cues", flaky, "--drop", "the browser checks keep failing at random")
  await step("edit", flaky, "--no-cues")
  await step("show", flaky)
  // Refusals: the same tag, message and exit code either way.
  await step("show", "zzzzzzzz")
  await step("show", "abcd")
  await step("add", "   ")
  await step("add", "x", "-c", "gotchas")
  await step("outcome", next, "great")
  await step("supersede", next, next)
  await step("outcome", deploy, "worked")
  return results
}

describe("mem with MEMLEDGER_URL", () => {
  it("gives the same answers, errors and exit codes as against a local file", { timeout: 600_000 }, async () => {
    const server = await serve()
    const cwd = tempDir()
    const [local, remote] = await Promise.all([session(localMem(join(tempDir(), "local.db"), cwd)), session(remoteMem(server.url, cwd))])
    expect(remote.map((r) => r.code)).toEqual(local.map((r) => r.code))
    expect(normalizer()(remote)).toEqual(normalizer()(local))
    // The session did what it says: a near-duplicate stored nothing; the errors kept their tags.
    expect(remote[3]).toMatchObject({ code: 0, out: { stored: false, reason: "similar memories exist" } })
    expect(remote[3]!.out.similar).toHaveLength(1)
    const learned = remote.find((r) => Array.isArray(r.out?.cues) && r.out.cues.some((c: { source: string }) => c.source === "learned"))
    expect(learned?.out.cues).toEqual([
      { text: "why do the e2e tests fail?", source: "written" },
      expect.objectContaining({ text: "the browser checks keep failing at random", source: "learned", origin: "claude-code:session/c" })
    ])
    expect(remote.slice(-7).map((r) => [r.code, r.err?.error])).toEqual([
      [1, "MemoryNotFound"],
      [2, "InvalidId"],
      [1, "InvalidContent"],
      [2, "UnknownCategory"],
      [2, "UsageError"],
      [1, "SupersedeSelf"],
      [1, "MemoryIsSuperseded"]
    ])
  })

  it("writes to the server's store as the caller: origin, agent and the working folder's project", async () => {
    const server = await serve()
    const repo = tempDir("memledger-repo-")
    execFileSync("git", ["init", "-q"], { cwd: repo })
    execFileSync("git", ["remote", "add", "origin", "git@github.com:Acme/App.git"], { cwd: repo })
    const added = await remoteMem(server.url, repo)("add", "the build needs Node 20", "--origin", "claude-code:session/z", "--agent", "claude-code", "--source", "observed", "--json")
    expect(added.code).toBe(0)
    // Read back from the server's file, locally: the write landed there, as that caller.
    const shown = await memAsync(["--db", server.dbPath, "show", added.json().id, "--json"])
    expect(shown.json()).toMatchObject({
      project: "github.com/Acme/App",
      scope: "project",
      origin: "claude-code:session/z",
      agent: "claude-code",
      source: "observed"
    })
    expect(server.requests.at(-1)).toMatchObject({
      "x-memledger-origin": "claude-code:session/z",
      "x-memledger-agent": "claude-code",
      "x-memledger-project": "github.com/Acme/App"
    })
  })

  it("refuses maintenance commands with exit 2, saying they run on the server's machine; --db still means a local file", async () => {
    const cwd = tempDir()
    const remote = remoteMem(await unusedUrl(), cwd)
    for (const args of [["verify"], ["rebuild"], ["export", "out.jsonl"], ["import", "in.jsonl"], ["replay", "in.jsonl"], ["purge"], ["doctor"]]) {
      const run = await remote(...args, "--json")
      expect(run.code, args.join(" ")).toBe(2)
      expect(JSON.parse(run.stderr)).toMatchObject({ error: "LocalOnly", message: expect.stringContaining("runs on the server's machine") })
    }
    const local = await remote("--db", join(cwd, "own.db"), "add", "a local note", "--global", "--json")
    expect(local).toMatchObject({ code: 0 })
    expect((await remote("--db", join(cwd, "own.db"), "verify", "--json")).code).toBe(0)
  })

  it("reports an unreachable server as ServiceUnavailable with exit 1", async () => {
    const url = await unusedUrl()
    const mem = remoteMem(url, tempDir())
    const json = await mem("list", "--json")
    expect(json.code).toBe(1)
    expect(json.stdout).toBe("")
    expect(JSON.parse(json.stderr)).toEqual({
      error: "ServiceUnavailable",
      message: `cannot reach memledger at ${url} (ECONNREFUSED); is 'mem serve' running there?`
    })
    const human = await mem("add", "anything", "--global")
    expect(human.code).toBe(1)
    expect(human.stderr).toBe(`mem: cannot reach memledger at ${url} (ECONNREFUSED); is 'mem serve' running there?\n`)
  })

  it("sends MEMLEDGER_TOKEN, else ~/.memledger/token, as a Bearer token; without one, says to set it", async () => {
    const server = await serve({ token: "s3cret" })
    const home = tempDir()
    const refused = await remoteMem(server.url, home)("stats", "--json")
    expect(refused.code).toBe(1)
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: "Unauthorized", message: expect.stringContaining("set MEMLEDGER_TOKEN") })

    expect((await remoteMem(server.url, home, { MEMLEDGER_TOKEN: "s3cret" })("stats", "--json")).code).toBe(0)
    expect(server.requests.at(-1)?.authorization).toBe("Bearer s3cret")

    mkdirSync(join(home, ".memledger"))
    writeFileSync(join(home, ".memledger", "token"), "s3cret\n")
    const fromFile = await remoteMem(server.url, home)("add", "kept on the server", "--global", "--json")
    expect(fromFile.code).toBe(0)
    expect(server.requests.at(-1)?.authorization).toBe("Bearer s3cret")
  })
})
