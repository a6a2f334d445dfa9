/**
 * Extraction by a language model, as `mem capture extract` runs it (the process a hook starts
 * in the background): real `mem` processes against a chat-completions server on a real local
 * socket, which answers as each test says and keeps what it was sent. What is sent is the part
 * of the session since a model last read it, scanned for privacy; what comes back is kept as
 * extracted, tentative memories of the session only where its evidence is in the text sent;
 * every failure is a line in hooks.log and nothing stored.
 */
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { hooksLogFile } from "../../src/hooks/hooks-log.js"
import { sessionFileOf } from "../../src/hooks/session-state.js"
import { memAsync } from "../support/cli-async.js"
import { createStore, memAt, tempDir } from "../support/cli.js"
import { startChatServer, type ChatReply, type ChatServer } from "../support/chat-server.js"
import { appendLines, claudeSession, writeLines } from "../support/claude-transcript.js"
import { unusedUrl } from "../support/rest-server.js"
import { example } from "../privacy/fake-secrets.js"

const SESSION = "5e1f0c2a-77b4-4c1e-9d3a-2b6f8e9a0c11"
const ORIGIN = `claude-code:session/${SESSION}`
const KEY = "sk-test-extraction-key-0123456789"

const PROMPT = "Please fix the failing cart test. The checkout tests need the Stripe mock: start it with `docker compose up stripe-mock` before `npm test`."
const STRIPE = {
  content: "Start the Stripe mock with `docker compose up stripe-mock` before running `npm test`.",
  category: "command",
  cues: ["how do I run the checkout tests?"],
  evidence: "start it with `docker compose up stripe-mock` before `npm test`"
}
/** A memory whose quote the conversation never said: a model's invention. */
const INVENTED = { content: "Run the database migrations before the tests.", category: "gotcha", cues: [], evidence: "run npm run migrate before the tests" }

const servers: ChatServer[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

const serve = async (reply: (body: string) => ChatReply): Promise<ChatServer> => {
  const server = await startChatServer((request) => reply(request.body.messages.at(-1)?.content ?? ""))
  servers.push(server)
  return server
}

const answering = (content: unknown): Promise<ChatServer> => serve(() => ({ content: typeof content === "string" ? content : JSON.stringify(content) }))

/** A store and a session transcript in a fresh folder, and `mem capture extract` on them against `url`. */
const setup = (lines?: ReadonlyArray<string>) => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const transcript = join(dir, `${SESSION}.jsonl`)
  const say = claudeSession(SESSION, dir)
  writeLines(transcript, lines ?? [say.user(PROMPT), say.agent("I'll start the Stripe mock first."), ...say.bash("docker compose up -d stripe-mock", "Started"), say.agent("The cart test passes now.")])
  const env = (url: string, more: Record<string, string> = {}) => ({ MEMLEDGER_LLM_URL: url, MEMLEDGER_LLM_MODEL: "qwen2.5-coder:7b", MEMLEDGER_LLM_KEY: KEY, ...more })
  const extract = (url: string, more: Record<string, string> = {}, args: string[] = []) =>
    memAsync(["--db", db, "capture", "extract", "--transcript", transcript, "--json", ...args], { env: env(url, more) })
  const log = () => (existsSync(hooksLogFile(db)) ? readFileSync(hooksLogFile(db), "utf8") : "")
  return { dir, db, transcript, say, run: memAt(db), extract, log, env }
}

const reviewed = (run: ReturnType<typeof memAt>) => run("review", "--json").json() as Array<Record<string, unknown>>

describe("a model that answers well", () => {
  it("keeps what it found as extracted, tentative memories of the session, traced to the part read, and drops what the text never said", async () => {
    const server = await answering([STRIPE, INVENTED])
    const { run, extract, transcript, log } = setup()
    // The URL as OpenAI documents it, with its /v1: the endpoint is not doubled.
    const result = await extract(`${server.url}/v1`)
    expect(result.code, result.stderr).toBe(0)
    expect(result.json()).toEqual({ sent: true, tokens: expect.any(Number), candidates: 2, invalid: 0, unfounded: 1, written: 1 })

    const [request, ...more] = server.requests
    expect(more).toEqual([])
    expect(request!.path).toBe("/v1/chat/completions")
    expect(request!.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request!.body).toMatchObject({ model: "qwen2.5-coder:7b", temperature: 0, messages: [{ role: "system" }, { role: "user" }] })
    const sent = request!.body.messages[1]!.content
    for (const said of ["user: Please fix the failing cart test.", "agent: I'll start the Stripe mock first.", "shell: $ docker compose up -d stripe-mock", "agent: The cart test passes now."]) {
      expect(sent).toContain(said)
    }

    const [memory, ...others] = reviewed(run)
    expect(others).toEqual([])
    expect(memory).toMatchObject({ content: STRIPE.content, category: "command", source: "extracted", status: "tentative", origin: ORIGIN })
    const shown = run("show", memory!.id as string)
    expect(shown.stdout).toContain(`captured from a transcript part a language model read in ${ORIGIN}`)
    expect(shown.stdout).toContain(`${transcript}:1-5`)
    expect(shown.stdout).toContain(`> ${STRIPE.evidence}`)
    expect(run("cues", memory!.id as string, "--json").stdout).toContain("how do I run the checkout tests?")
    expect(log()).toContain("1 whose evidence is not in the text sent")
    expect(log()).not.toContain(KEY)
  })

  it("sends a part once: a second run sends nothing, and so does one that lost the session's state", async () => {
    const server = await answering([STRIPE])
    const { db, extract } = setup()
    expect((await extract(server.url)).json()).toMatchObject({ sent: true, written: 1 })
    expect((await extract(server.url)).json()).toEqual({ sent: false, why: "nothing new" })
    rmSync(sessionFileOf(db, SESSION))
    expect((await extract(server.url)).json()).toEqual({ sent: false, why: "already extracted" })
    expect(server.requests).toHaveLength(1)
  })

  it("sends only what was said since the part it read", async () => {
    const server = await answering([])
    const { extract, transcript, say } = setup()
    await extract(server.url)
    appendLines(transcript, [say.user("Thanks. Deploys go through `make release`, never `npm publish`.")])
    expect((await extract(server.url)).json()).toMatchObject({ sent: true, written: 0 })
    const second = server.requests[1]!.body.messages[1]!.content
    expect(second).toContain("make release")
    expect(second).not.toContain("Stripe mock")
  })

  it("leaves a short part for later when asked for at least some tokens, as a turn end asks", async () => {
    const server = await answering([STRIPE])
    const { extract } = setup()
    expect((await extract(server.url, {}, ["--at-least", "1000"])).json()).toEqual({ sent: false, why: "too little new" })
    expect(server.requests).toEqual([])
    expect((await extract(server.url)).json()).toMatchObject({ sent: true })
  })

  it("is taken back with the session by forget-conversation, and undo restores it", async () => {
    const server = await answering([STRIPE])
    const { run, extract } = setup()
    await extract(server.url)
    const [memory] = reviewed(run)
    expect(run("forget-conversation", ORIGIN).code).toBe(0)
    expect(run("list", "--json").json()).toEqual([])
    expect(run("forget-conversation", ORIGIN, "--undo").code).toBe(0)
    expect(run("list", "--json").json()).toEqual([expect.objectContaining({ id: memory!.id, source: "extracted", status: "tentative" })])
  })
})

describe("what never leaves the machine", () => {
  it("sends no secret and nothing inside <private>, a span still open from an earlier part included", async () => {
    const server = await answering([])
    const github = example("github token")
    const aws = example("aws access key id")
    const dir = tempDir()
    const say = claudeSession(SESSION, dir)
    const { extract, transcript } = setup([
      say.user(`Push with the token ${github.text} please.`),
      say.agent(`Using the AWS key ${aws.text} for the bucket.`),
      say.user("Here is the staging login: <private>admin / hunter2-staging</private> use it for the smoke test."),
      say.user("And the vault note: <private>the recovery phrase is umbrella-fortress")
    ])
    await extract(server.url)
    appendLines(transcript, [say.user("velvet-anchor, keep it safe</private> Now run the smoke test.")])
    await extract(server.url)
    expect(server.requests).toHaveLength(2)
    const sent = server.requests.map((r) => r.raw).join("\n")
    for (const secret of [github.sensitive, aws.sensitive, "hunter2-staging", "umbrella-fortress", "velvet-anchor"]) expect(sent).not.toContain(secret)
    expect(sent).toContain("[redacted: github token]")
    expect(sent).toContain("use it for the smoke test")
    expect(server.requests[1]!.body.messages[1]!.content).toContain("Now run the smoke test.")
  })

  it("sends nothing where capture is limited to rules, or off", async () => {
    const server = await answering([STRIPE])
    const { db, run, extract } = setup()
    createStore(db)
    for (const mode of ["rules", "off"]) {
      expect(run("capture", mode).code).toBe(0)
      expect((await extract(server.url)).json()).toEqual({ sent: false, why: "capture is not on" })
    }
    expect(server.requests).toEqual([])
  })
})

describe("a model that answers badly, or not at all, keeps nothing and says why in hooks.log", () => {
  const keepsNothing = async (server: ChatServer | string, logged: RegExp, more: Record<string, string> = {}) => {
    const { run, extract, log } = setup()
    const result = await extract(typeof server === "string" ? server : server.url, more)
    expect(result.code).toBe(1)
    expect(reviewed(run)).toEqual([])
    expect(log()).toMatch(logged)
    expect(log()).not.toContain(KEY)
    return result
  }

  it("malformed JSON", async () => {
    await keepsNothing(await answering('[{"content": "Start the Stripe mock", "category": '), /extract: claude-code:session\/\S+: the language model at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered, but not with JSON/)
  })

  it("JSON that is not the memories asked for", async () => {
    await keepsNothing(await answering([{ content: STRIPE.content, category: "tip", evidence: STRIPE.evidence }]), /none of its 1 memories has the fields asked for/)
  })

  it("a refusal in prose", async () => {
    await keepsNothing(await answering("I'm sorry, but I can't help with extracting information from this conversation."), /not with JSON: I'm sorry/)
  })

  it("an HTTP error", async () => {
    await keepsNothing(await serve(() => ({ status: 404, body: '{"error":{"message":"model \\"qwen2.5-coder:7b\\" not found"}}' })), /answered, but with 404 Not Found: .*not found/)
  })

  it("a server that never answers: the process ends at the time limit", async () => {
    const server = await serve(() => "never")
    const result = await keepsNothing(server, /took longer than 1500 ms/, { MEMLEDGER_LLM_TIMEOUT_MS: "1500" })
    expect(server.requests).toHaveLength(1)
    expect(server.answered()).toBe(0)
    expect(result.stderr).toContain("took longer than 1500 ms")
  })

  it("a server that cannot be reached", async () => {
    await keepsNothing(await unusedUrl(), /cannot reach the language model at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: fetch failed \(.*ECONNREFUSED/)
  })

  it("an empty answer is no failure: nothing was worth keeping", async () => {
    const server = await answering([])
    const { run, extract, log } = setup()
    expect((await extract(server.url)).json()).toEqual({ sent: true, tokens: expect.any(Number), candidates: 0, invalid: 0, unfounded: 0, written: 0 })
    expect(reviewed(run)).toEqual([])
    expect(log()).toBe("")
  })

  it("a part the model could not be asked about is sent again next time", async () => {
    const { extract } = setup()
    await extract(await unusedUrl())
    const server = await answering([STRIPE])
    expect((await extract(server.url)).json()).toMatchObject({ sent: true, written: 1 })
  })
})

describe("mem doctor", () => {
  it("says whether a model extracts, its model and host, never its key", async () => {
    const { db, run, env } = setup()
    createStore(db)
    const doctor = (more: Record<string, string>) => memAsync(["--db", db, "doctor"], { env: more })
    expect((await doctor({})).stdout).toContain("extraction by a language model: off (set MEMLEDGER_LLM_URL and MEMLEDGER_LLM_MODEL to turn it on)")
    const on = await doctor(env("http://127.0.0.1:11434/v1"))
    expect(on.stdout).toContain("extraction by a language model: on (qwen2.5-coder:7b at 127.0.0.1:11434)")
    expect(on.stdout).not.toContain(KEY)
    expect(run("capture", "rules").code).toBe(0)
    expect((await doctor(env("http://127.0.0.1:11434"))).stdout).toContain("extraction by a language model: off for this store, where capture is not on")
    const broken = await doctor({ MEMLEDGER_LLM_URL: "http://127.0.0.1:11434" })
    expect(broken.code).toBe(1)
    expect(broken.stdout).toContain("FAIL  language model: MEMLEDGER_LLM_URL is set but MEMLEDGER_LLM_MODEL is not")
  })
})
