/**
 * A learned cue's vector through the CLI as a real process, with the `http` embedder talking to
 * an OpenAI-compatible server in a child process on loopback (words hashed into buckets): a
 * global memory taught in a project by a conversation's missed search is found from there by
 * the cue's vector, and `mem why` names the cue and what taught it.
 */
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startHashEmbeddingServer, type EmbeddingServer } from "../../bench/support/embedding-server.js"
import { mem, tempDir } from "../support/cli.js"

const APP = "github.com/acme/app"
let server: EmbeddingServer
beforeAll(async () => {
  server = await startHashEmbeddingServer(64)
})
afterAll(() => server.close())

it("mem why names the learned cue whose vector found a global memory, and the conversation that taught it", { timeout: 120_000 }, () => {
  const db = join(tempDir(), "m.db")
  const env = { MEMLEDGER_EMBEDDER: "http", MEMLEDGER_EMBEDDER_MODEL: "hash-64", MEMLEDGER_EMBEDDER_URL: server.url }
  const run = (...args: string[]) => mem(["--db", db, ...args], { env })
  const { id } = run("add", "Handlers read the time from the Clock service", "-c", "convention", "--global", "--json").json()
  const asked = "where should request code ask for now"
  const teacher = ["--origin", "claude-code:session/s1"]
  expect(run("search", asked, "-p", APP, ...teacher, "--json").json().results.map((r: { id: string }) => r.id)).not.toContain(id)
  expect(run("search", "clock service", "-p", APP, ...teacher).code).toBe(0)
  expect(run("outcome", id, "worked", ...teacher).code).toBe(0)
  const outcome = (run("log", "--json").json() as Array<{ id: string; type: string }>).find((e) => e.type === "OutcomeRecorded")!

  const why = run("why", asked, "-p", APP, "--json").json()
  expect(why.mode).toBe("hybrid")
  expect(why.results[0]).toMatchObject({ id, terms: { relevance: { viaCue: { text: asked, origin: "claude-code:session/s1", outcomeEventId: outcome.id } } } })
  const text = run("why", asked, "-p", APP).stdout
  expect(text).toMatch(new RegExp(`\\n {6}vector via learned cue "${asked}": cosine 1\\.000 x weight \\d\\.\\d\\d\\n {6}learned from conversation claude-code:session/s1: outcome event ${outcome.id}, after recall event \\S+\\n`))
  // From another project the cue does not apply: the memory is not found through it there.
  expect(run("why", asked, "-p", "github.com/acme/other", "--json").json().results.every((r: { terms: { relevance: { viaCue?: unknown } } }) => r.terms.relevance.viaCue === undefined)).toBe(true)
})
