/**
 * The hooks start a model's extraction and never wait for it: a real `mem hook session-end`
 * process returns while the model (a chat-completions server on a local socket, holding its
 * answer) has not answered; the extraction it left running keeps what the model gives once it
 * does. A turn end starts one too, when enough was said since the last.
 */
import { join } from "node:path"
import { afterEach, expect, it } from "vitest"
import { memAsync } from "../support/cli-async.js"
import { memAt, tempDir } from "../support/cli.js"
import { gate, startChatServer, type ChatServer } from "../support/chat-server.js"
import { claudeSession, writeLines } from "../support/claude-transcript.js"
import { until } from "../support/waiting.js"

const SESSION = "0b7d6c5e-4f3a-4b2c-8d1e-9f0a1b2c3d4e"
const RULE = "Integration tests talk to the real Postgres from `docker compose up db`, never to a mock."
const MEMORY = { content: "Integration tests use the real Postgres from `docker compose up db`, not a mock.", category: "convention", evidence: RULE }

let server: ChatServer | undefined
afterEach(async () => server?.close())

const session = (turns: number) => {
  const dir = tempDir()
  const db = join(dir, "m.db")
  const transcript = join(dir, `${SESSION}.jsonl`)
  const say = claudeSession(SESSION, dir)
  const chatter = Array.from({ length: turns }, (_, i) => say.agent(`Step ${i}: reading src/orders/service.ts and its tests, then the fixtures under test/orders, to see where the totals are computed.`))
  writeLines(transcript, [say.user(`Fix the order totals. ${RULE}`), ...chatter])
  const hook = (event: string, url: string) =>
    memAsync(["--db", db, "hook", event], {
      input: JSON.stringify({ session_id: SESSION, transcript_path: transcript, cwd: dir, hook_event_name: event }),
      env: { MEMLEDGER_LLM_URL: url, MEMLEDGER_LLM_MODEL: "qwen2.5-coder:7b" }
    })
  const extracted = () => (memAt(db)("review", "--json").json() as Array<{ content: string; source: string }>).filter((m) => m.source === "extracted")
  return { hook, extracted }
}

it("session-end returns before the model answers, and what the model gives is kept once it does", async () => {
  const slow = gate()
  server = await startChatServer(async () => {
    await slow.wait
    return { content: JSON.stringify([MEMORY]) }
  })
  const { hook, extracted } = session(1)
  const ended = await hook("session-end", server.url)
  expect(ended.code).toBe(0)
  expect(ended.stdout).toBe("")
  // The hook has exited; the model has not answered: the hook did not wait for it.
  expect(server.answered()).toBe(0)
  await until(() => server!.requests.length === 1, "the extraction the hook started to ask the model")
  expect(extracted()).toEqual([])
  slow.open()
  await until(() => extracted().length === 1, "the model's memory to be kept", { attempts: 100, everyMs: 100 })
  expect(extracted()).toEqual([expect.objectContaining({ content: MEMORY.content })])
})

it("a turn end starts it too once enough was said since the last part", async () => {
  server = await startChatServer(() => ({ content: JSON.stringify([MEMORY]) }))
  const { hook, extracted } = session(60)
  expect((await hook("stop", server.url)).code).toBe(0)
  await until(() => extracted().length === 1, "the model's memory to be kept", { attempts: 100, everyMs: 100 })
  expect(server.requests).toHaveLength(1)
})
