/**
 * `mem import --transcripts` with a language model configured: each past session is read by the
 * model, one at a time, through the same once-per-part extraction the hooks start; a memory the
 * model gives that a rule or lesson of the import already holds is not stored twice; no secret
 * of the transcripts reaches the model; and importing again sends nothing.
 */
import { join } from "node:path"
import { afterEach, expect, it } from "vitest"
import { memAsync } from "../support/cli-async.js"
import { memAt, tempDir } from "../support/cli.js"
import { startChatServer, type ChatServer } from "../support/chat-server.js"

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "transcripts")
const CODEX = "codex:session/019b8e2a-3c4d-7e5f-a6b7-c8d9e0f1a2b3"

/** What the Claude Code session's rule already says, and what only the Codex session's agent said. */
const LINT = { content: "Always run `npm run lint` before committing in the shop project.", category: "convention", evidence: "From now on, always run `npm run lint` before committing." }
const GENERATED = { content: "Never commit generated files in the API repository.", category: "convention", evidence: "Remember to never commit generated files." }

let server: ChatServer | undefined
afterEach(async () => server?.close())

it("reads each session once with the model, keeps what is new, and sends nothing when imported again", async () => {
  server = await startChatServer((request) => ({ content: JSON.stringify(request.raw.includes("pnpm") ? [GENERATED] : [LINT]) }))
  const db = join(tempDir(), "m.db")
  const env = { MEMLEDGER_LLM_URL: server.url, MEMLEDGER_LLM_MODEL: "llama3.1:8b" }
  const first = await memAsync(["--db", db, "import", "--transcripts", FIXTURES, "--json"], { env })
  expect(first.code, first.stderr).toBe(0)
  expect(first.json()).toEqual({ files: 2, sessions: 2, written: 8, extracted: { parts: 2, written: 1, failed: 0 } })
  expect(server.requests).toHaveLength(2)
  expect(server.requests.map((r) => r.raw).join("\n")).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789")

  const extracted = (memAt(db)("review", "--limit", "50", "--json").json() as Array<Record<string, unknown>>).filter((m) => m.source === "extracted")
  expect(extracted).toEqual([expect.objectContaining({ content: GENERATED.content, status: "tentative", origin: CODEX })])

  const again = await memAsync(["--db", db, "import", "--transcripts", FIXTURES], { env })
  expect(again.stdout).toContain("0 memories captured or confirmed, 0 of them by the language model, from 0 new parts of the sessions")
  expect(server.requests).toHaveLength(2)
})
