/**
 * What the hooks read from the agent and from their own state files, checked by hand (no Effect
 * Schema, so that post-tool-use loads nothing it can spare): unknown fields dropped, nulls kept
 * as absent, anything of the wrong shape refused rather than half read.
 */
import { describe, expect, it } from "vitest"
import { readHookInput } from "../../src/hooks/hook-input.js"
import { EMPTY_SESSION, sessionStateOf } from "../../src/hooks/session-state.js"

describe("readHookInput", () => {
  it("keeps the fields it reads, nulls included, and drops the rest", () => {
    expect(readHookInput({ session_id: "s", transcript_path: null, model: "gpt-5-codex", tool_input: { command: "ls" } })).toEqual({
      input: { session_id: "s", transcript_path: null, tool_input: { command: "ls" } }
    })
  })

  it("refuses input that is not an object, or a text that is neither a string nor null", () => {
    for (const value of [null, [], "text", 3, { session_id: 5 }, { prompt: { text: "hi" } }, { cwd: false }]) {
      expect(readHookInput(value), JSON.stringify(value)).toHaveProperty("problem")
    }
  })
})

describe("sessionStateOf", () => {
  const state = { lastSeq: 4, commands: ["npm test"], cited: [], attributed: [], transcriptOffset: 120 }
  const verdict = { verdict: "worked", runner: "vitest", passed: 3, failed: 0, at: "2026-01-01T00:00:00.000Z" }

  it("reads a state file's JSON, with or without a verdict, and drops fields it does not know", () => {
    expect(sessionStateOf(state)).toEqual(state)
    expect(sessionStateOf({ ...state, verdict: { ...verdict, extra: 1 }, extra: true })).toEqual({ ...state, verdict })
    expect(sessionStateOf(EMPTY_SESSION)).toEqual(EMPTY_SESSION)
  })

  it("refuses anything else, so that the session starts afresh", () => {
    for (const value of [null, [], { ...state, lastSeq: "4" }, { ...state, commands: [1] }, { ...state, cited: undefined }, { ...state, verdict: { ...verdict, verdict: "maybe" } }]) {
      expect(sessionStateOf(value), JSON.stringify(value)).toBeUndefined()
    }
  })
})
