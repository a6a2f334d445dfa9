/**
 * post-tool-use runs in the background, so it may write the session's state file while a turn's
 * stop hook is still working. Stop must save its own fields onto the file as it is then: the
 * command and the verdict written meanwhile stay, for the next turn's end to attribute.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { Operations } from "../../src/api/operations.js"
import { runHook } from "../../src/hooks/handlers.js"
import { loadSession } from "../../src/hooks/session-state.js"
import { recordToolUse } from "../../src/hooks/tool-use.js"
import { LocalOperationsLayer } from "../../src/services/app.js"
import { tempDir } from "../support/cli.js"

const caller = { origin: "claude-code:session/overlap", agent: "claude-code", project: null }

describe("a hook that overlaps post-tool-use", () => {
  it("stop keeps the command and the verdict post-tool-use wrote while it worked", async () => {
    const dir = tempDir()
    const dbPath = join(dir, "m.db")
    const place = { dbPath, sessionId: "overlap", nowIso: "2026-01-01T00:00:00.000Z" }
    const store = LocalOperationsLayer(dbPath)
    const id = await Effect.runPromise(
      Effect.flatMap(Operations, (ops) => ops.remember({ content: "Fake the clock with vi.useFakeTimers in date tests", scope: "global" }, caller)).pipe(
        Effect.map((stored) => ("id" in stored ? stored.id : "")),
        Effect.provide(store)
      )
    )
    const transcript = join(dir, "transcript.jsonl")
    writeFileSync(transcript, `${JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: `Per ${id}, faking the clock.` }] } })}\n`)

    // The test run finishes, and its post-tool-use writes, while stop looks up the cited memory.
    const testRun = { tool_name: "Bash", tool_input: { command: "npm test" }, tool_response: { stdout: "12 passed, 0 failed\n" } }
    const overlapping = Layer.effect(
      Operations,
      Effect.map(Operations, (ops) => ({
        ...ops,
        getMemory: (input: Parameters<typeof ops.getMemory>[0], who: Parameters<typeof ops.getMemory>[1]) =>
          Effect.zipRight(Effect.sync(() => recordToolUse(testRun, place)), ops.getMemory(input, who))
      }))
    ).pipe(Layer.provide(store))

    await Effect.runPromise(Effect.provide(runHook("stop", { session_id: "overlap", transcript_path: transcript }, { ...place, caller }), overlapping).pipe(Effect.scoped))

    const state = loadSession(dbPath, "overlap")
    expect(state.commands).toEqual(["npm test"])
    expect(state.verdict?.verdict).toBe("worked")
    expect(state.cited).toEqual([id])
    expect(state.transcriptOffset).toBeGreaterThan(0)
  })
})
