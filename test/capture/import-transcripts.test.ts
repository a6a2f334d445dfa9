/**
 * `mem import --transcripts` over the Claude Code and Codex fixtures (test/fixtures/transcripts):
 * the rules people typed and the lessons of each session's commands, each with its session as
 * origin; nothing from injected text, the agent's own words, an interrupted command or an
 * outcome the file does not state; no secret; and importing again adds nothing.
 */
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { mem, memAt, tempDir } from "../support/cli.js"
import { onTerminal, shellQuote } from "../support/terminal.js"

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "transcripts")
const CLAUDE = "claude-code:session/7f3c2a10-5b1e-4c7d-9a2e-0c1d2e3f4a5b"
const CODEX = "codex:session/019b8e2a-3c4d-7e5f-a6b7-c8d9e0f1a2b3"

interface Reviewed {
  readonly id: string
  readonly content: string
  readonly category: string
  readonly origin: string
  readonly status: string
  readonly source: string
}

const imported = () => {
  const db = join(tempDir(), "m.db")
  const run = memAt(db)
  const result = run("import", "--transcripts", FIXTURES, "--json")
  return { db, run, result }
}

describe("importing past sessions", () => {
  const { run, result } = imported()
  const memories = (run("review", "--limit", "50", "--json").json() as Reviewed[]).map((m) => [m.origin, m.category, m.content])

  it("reports the files and sessions it read", () => {
    expect(result.code).toBe(0)
    expect(result.json()).toEqual({ files: 2, sessions: 2, written: 7 })
  })

  it("captures the rules the person typed and the lessons of the commands, each tentative with its session as origin", () => {
    expect(memories.sort()).toEqual(
      [
        [CLAUDE, "command", "From now on, always run `npm run lint` before committing."],
        [CLAUDE, "convention", "Also, always authenticate to the registry with the token [redacted: github token] from the vault."],
        [CLAUDE, "troubleshooting", "`npm run build` fails with src/checkout.ts(3,22): error TS2307: Cannot find module './cart' or its corresponding type declarations.; `npm run build -- --preserveSymlinks` works."],
        [CLAUDE, "command", "Run the tests with `npx vitest run`."],
        [CODEX, "convention", "We use pnpm, not npm."],
        [CODEX, "troubleshooting", "`cargo test --features health` fails with error: none of the selected packages contains these features: health; `cargo test --all-features` works."],
        [CODEX, "troubleshooting", "`git push` fails with fatal: The current branch main has no upstream branch.; `git push -u origin main` works."]
      ].sort()
    )
    const all = run("review", "--limit", "50", "--json").json() as Reviewed[]
    expect(all.every((m) => m.status === "tentative" && m.source === "observed")).toBe(true)
  })

  it("stores no secret anywhere in the log", () => {
    expect(JSON.stringify(run("log", "--json", "--limit", "500").json())).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz0123456789")
  })

  it("adds nothing when the same transcripts are imported again, not even a confirmation", () => {
    const before = run("log", "--json", "--limit", "500").json().length
    const again = run("import", "--transcripts", FIXTURES, "--json")
    expect(again.json()).toEqual({ files: 2, sessions: 2, written: 0 })
    expect(run("log", "--json", "--limit", "500").json()).toHaveLength(before)
  })
})

it("adds nothing for a rule the hooks already captured live in the same session", () => {
  const db = join(tempDir(), "m.db")
  const prompt = "The checkout build is broken, can you fix it? From now on, always run `npm run lint` before committing."
  const live = mem(["--db", db, "hook", "user-prompt-submit"], { input: JSON.stringify({ session_id: "7f3c2a10-5b1e-4c7d-9a2e-0c1d2e3f4a5b", cwd: "/home/dev/shop", prompt }) })
  expect(live.code).toBe(0)
  const run = memAt(db)
  run("import", "--transcripts", join(FIXTURES, "claude-code"))
  const lint = (run("list", "--all", "--json").json() as Array<{ content: string; confirmations: number }>).filter((m) => m.content.includes("npm run lint"))
  expect(lint).toEqual([expect.objectContaining({ confirmations: 1 })])
})

it("shows its progress on a terminal, and refuses a path that does not exist", () => {
  const db = join(tempDir(), "m.db")
  const screen = onTerminal(`node bin/mem.js --db ${shellQuote(db)} import --transcripts ${shellQuote(FIXTURES)}`)
  expect(screen.code).toBe(0)
  expect(screen.text).toMatch(/importing transcripts \[#+\] 100% 2\/2/)
  expect(screen.text).toContain("read 2 sessions in 2 files")
  const missing = memAt(db)("import", "--transcripts", join(FIXTURES, "nowhere"))
  expect(missing.code).not.toBe(0)
  expect(missing.stderr).toContain("cannot read")
})
