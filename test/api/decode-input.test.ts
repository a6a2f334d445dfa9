/**
 * The messages an input's decode failure carries on every surface (CLI, SDK, REST, MCP): they
 * name the field and say what was expected, and they quote a refused value only as far as it
 * takes to recognise it, never a 20,000-character query back at its sender.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { clipActual, decodeInput } from "../../src/api/decode-input.js"
import { RecallInput, RecordOutcomeInput } from "../../src/api/inputs.js"

const failure = (result: Either.Either<unknown, { readonly _tag: string; readonly message: string }>) => {
  if (Either.isRight(result)) throw new Error("expected the input to be refused")
  return result.left
}

describe("decode failures of oversized values", () => {
  it("name the field and quote the value's start and its length, not all of it", () => {
    const note = failure(decodeInput(RecordOutcomeInput, { memory_ids: ["0whfk3h3bq9p1g66ssf8fpz40s"], outcome: "worked", note: "n".repeat(20_000) }))
    expect(note._tag).toBe("InvalidInput")
    expect(note.message).toMatch(/^note: Expected a string at most 2000 character\(s\) long/)
    expect(note.message).toContain(`"${"n".repeat(80)}…" (20000 characters)`)
    expect(note.message.length).toBeLessThan(400)

    const query = failure(decodeInput(RecallInput, { query: "x".repeat(20_000) }))
    expect(query.message).toBe("query: the query is 20000 characters; the limit is 10000")
  })

  it("count a query's characters, not its UTF-16 units, as the content's limit does", () => {
    expect(Either.isRight(decodeInput(RecallInput, { query: "😀".repeat(10_000) }))).toBe(true)
    expect(failure(decodeInput(RecallInput, { query: "😀".repeat(10_001) })).message).toBe("query: the query is 10001 characters; the limit is 10000")
  })

  it("leave short quotes whole, escapes included", () => {
    expect(clipActual('Expected "a" | "b", actual "say \\"hi\\""')).toBe('Expected "a" | "b", actual "say \\"hi\\""')
  })

  it("cut any message longer than a few hundred characters", () => {
    expect(clipActual("y".repeat(5_000))).toBe(`${"y".repeat(600)}…`)
  })
})

describe("inputs nested too deep", () => {
  it("are refused before the decoder recurses into them, as on REST and MCP, so the SDK and the CLI never overflow the stack", () => {
    let query: unknown = "x"
    for (let i = 0; i < 20_000; i++) query = { a: query }
    const refused = failure(decodeInput(RecallInput, { query }))
    expect(refused).toMatchObject({ _tag: "InvalidInput", message: expect.stringMatching(/more than 32 levels deep/) })
  })
})
