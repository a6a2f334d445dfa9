/**
 * Cues and further phrasings through the CLI as a real process: cues written with `mem add
 * --cue` and replaced or removed by `mem edit`, a search that finds with `--also` what its first
 * phrasing misses, and a cue learned from a conversation's missed search before a worked
 * outcome: listed with where it came from, shown by search, why and show, then dropped.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { memAt, tempDir } from "../support/cli.js"

const APP = "github.com/acme/app"
const fresh = () => memAt(join(tempDir(), "m.db"))

describe("written cues", () => {
  it("are stored by mem add --cue, and printed by show and cues", () => {
    const run = fresh()
    const added = run("add", "Deploy with: make deploy ENV=prod", "-c", "command", "-p", APP, "--cue", "how do I ship to production?", "--cue", "release the app", "--json")
    expect(added.code).toBe(0)
    const { id } = added.json()

    expect(run("show", id, "--json").json()).toMatchObject({ id, cues: ["how do I ship to production?", "release the app"] })
    expect(run("show", id).stdout).toContain('cues:          "how do I ship to production?", "release the app"\n')
    expect(run("cues", id, "--json").json()).toEqual({
      id,
      shortId: expect.any(String),
      content: "Deploy with: make deploy ENV=prod",
      cues: [
        { text: "how do I ship to production?", source: "written" },
        { text: "release the app", source: "written" }
      ]
    })
    expect(run("cues", id).stdout).toMatch(/^\S+ {2}Deploy with: make deploy ENV=prod\nwritten {2}"how do I ship to production\?"\nwritten {2}"release the app"\n$/)

    const found = run("search", "how do I ship to production", "-p", APP)
    expect(found.stdout).toMatch(/^1\. \S+ +[\d.]+ +\[command\] Deploy with: make deploy ENV=prod\n {3}answers 100% via written cue "how do I ship to production\?"\n$/)
  })

  it("are replaced as a whole by mem edit --cue and removed by --no-cues, not both at once", () => {
    const run = fresh()
    const { id } = run("add", "Postgres 16 is required", "--global", "--cue", "which postgres version?", "--json").json()
    expect(run("edit", id, "--cue", "what database do we need", "--cue", "db version", "--json").json()).toEqual({ id, changed: true })
    expect(run("show", id, "--json").json().cues).toEqual(["what database do we need", "db version"])

    const both = run("edit", id, "--cue", "x", "--no-cues")
    expect(both.code).toBe(2)
    expect(both.stderr).toBe("mem: give --cue or --no-cues, not both\n")

    expect(run("edit", id, "--no-cues", "--json").json()).toEqual({ id, changed: true })
    expect(run("show", id, "--json").json().cues).toEqual([])
    expect(run("cues", id).stdout).toContain("no cues: write some with mem edit")
  })

  it("are refused past 5, or past 32 words, writing nothing", () => {
    const run = fresh()
    const six = run("add", "Six cues are too many", "--global", ...["a", "b", "c", "d", "e", "f"].flatMap((c) => ["--cue", c]), "--json")
    expect(six.code).toBe(1)
    expect(JSON.parse(six.stderr)).toEqual({ error: "InvalidInput", message: "cues: 6 cues; a memory takes at most 5" })
    const long = run("add", "One cue is too long", "--global", "--cue", Array.from({ length: 33 }, (_, i) => `w${i}`).join(" "))
    expect(long.code).toBe(1)
    expect(long.stderr).toMatch(/a cue is at most 32 words/)
    expect(run("stats", "--json").json().events).toBe(0)
  })
})

describe("mem search --also", () => {
  it("finds a memory only the second phrasing names, and says which phrasing answered", () => {
    const run = fresh()
    const { id } = run("add", "Flaky e2e suite: rerun playwright with --retries 2", "-c", "workaround", "--global", "--json").json()
    const query = "the browser checks keep failing at random"
    expect(run("search", query).stdout).toBe(`no memory answers "${query}"\n`)

    const found = run("search", query, "--also", "playwright flaky retries", "--also", "e2e tests unstable", "--json").json()
    expect(found.results.map((r: { id: string }) => r.id)).toEqual([id])
    expect(found.results[0].coverage).toMatchObject({ phrasing: "playwright flaky retries", source: "content" })
    expect(run("search", query, "--also", "playwright flaky retries").stdout).toContain('   answers 100% of "playwright flaky retries"\n')

    expect(run("why", query, "--also", "playwright flaky retries").stdout).toContain('   coverage   1.000 of "playwright flaky retries", in its content\n')
    expect(run("context", "-q", query, "--also", "playwright retries", "--json").json().included).toEqual([id])
    // The one recall records every phrasing.
    // The log lists newest first.
    const recalled = (run("log", "--json").json() as Array<{ seq: number; type: string; payload: unknown }>)
      .filter((e) => e.type === "MemoriesRecalled")
      .sort((a, b) => a.seq - b.seq)
    expect(recalled[1]!.payload).toMatchObject({ query, also: ["playwright flaky retries", "e2e tests unstable"], memoryIds: [id] })
  })
})

describe("learned cues", () => {
  // Some twenty `mem` processes one after another: more than the default minute on a busy machine.
  it("come from a conversation's missed search before a worked outcome, are listed with their source, and can be dropped", { timeout: 180_000 }, () => {
    const run = fresh()
    const { id } = run("add", "Deploy with: make deploy ENV=prod", "-c", "command", "-p", APP, "--json").json()
    const asked = "what is the rollout procedure"
    expect(run("search", asked, "-p", APP, "--origin", "claude-code:session/s1").stdout).toBe(`no memory answers "${asked}"\n`)
    expect(run("outcome", id, "worked", "--origin", "claude-code:session/s1").code).toBe(0)

    const events = run("log", "--json").json() as Array<{ id: string; type: string }>
    const recall = events.find((e) => e.type === "MemoriesRecalled")!
    const outcome = events.find((e) => e.type === "OutcomeRecorded")!
    const listed = run("cues", id, "--json").json()
    expect(listed.cues).toEqual([
      {
        text: asked,
        source: "learned",
        project: APP,
        weight: expect.closeTo(1, 3),
        origin: "claude-code:session/s1",
        outcomeEventId: outcome.id,
        recallEventId: recall.id,
        learnedAt: expect.any(String)
      }
    ])
    expect(run("cues", id).stdout).toContain(
      `learned  "${asked}"\n         weight 1.00 now, in ${APP}; learned ${listed.cues[0].learnedAt} from conversation claude-code:session/s1, outcome event ${outcome.id}\n`
    )
    expect(run("show", id).stdout).toMatch(new RegExp(`\\nlearned cues:  "${asked}" \\(weight 1\\.00 now, in ${APP.replace(/\./g, "\\.")}; .*outcome event ${outcome.id}\\)\\n`))

    // The next search worded that way finds it through the cue, and says so.
    expect(run("search", asked, "-p", APP).stdout).toContain(`   answers 100% via learned cue "${asked}"\n`)
    const why = run("why", asked, "-p", APP).stdout
    expect(why).toContain(`   coverage   1.000 of "${asked}", in learned cue "${asked}"\n`)
    expect(why).toContain(`      learned from conversation claude-code:session/s1: outcome event ${outcome.id}, after recall event ${recall.id}\n`)

    expect(run("cues", id, "--drop", asked, "--json").json()).toEqual({ id, dropped: asked })
    expect(run("cues", id, "--json").json().cues).toEqual([])
    const dropped = (run("log", "--json").json() as Array<{ type: string; payload: unknown }>)[0]
    expect(dropped).toMatchObject({ type: "CueDropped", payload: { memoryId: id, cue: asked } })
    expect(run("log", "--memory", id).stdout).toMatch(/CueDropped +cli +\S+ learned cue "what is the rollout procedure"\n/)
    expect(run("search", asked, "-p", APP).stdout).toBe(`no memory answers "${asked}"\n`)

    const again = run("cues", id, "--drop", asked)
    expect(again.code).toBe(1)
    expect(again.stderr).toBe(`mem: the memory has no learned cue "${asked}"; 'mem cues ID' lists them\n`)
  })

  it("why names the coverage stage of a memory that answers too little, with the text that came closest", () => {
    const run = fresh()
    run("add", "Deploy with: make deploy ENV=prod", "-p", APP, "--cue", "how do I ship to production?")
    const why = run("why", "ship kubernetes cluster nodes", "-p", APP).stdout
    expect(why).toMatch(/\n {3}\S+ +coverage +answers too little of the query: coverage 0\.\d+ < 0\.3 {2}"Deploy with: make deploy ENV=prod"\n/)
    expect(why).toMatch(/\n +coverage +0\.\d+ of "ship kubernetes cluster nodes", in written cue "how do I ship to production\?"\n/)
  })
})
