/**
 * Reading a model's answer (src/capture/llm/model-answer.ts): the JSON array asked for, also in
 * a code fence or an object; each item checked alone; and the guard against invention, which
 * keeps only memories whose quote is in the text that was sent.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { groundedIn, parseModelAnswer, type Candidate } from "../../src/capture/llm/model-answer.js"

const item: Candidate = { content: "Use pnpm, not npm.", category: "convention", cues: ["which package manager?"], evidence: "We use pnpm, not npm." }

describe("parsing an answer", () => {
  it("takes the array bare, in a code fence after some words, or as an object's one list; categories in any case", () => {
    for (const answer of [JSON.stringify([item]), `Here you are:\n\`\`\`json\n${JSON.stringify([item])}\n\`\`\``, JSON.stringify({ memories: [{ ...item, category: "Convention" }] })]) {
      expect(parseModelAnswer(answer)).toEqual(Either.right({ candidates: [item], invalid: 0 }))
    }
  })

  it("drops an item without the fields asked for, and refuses an answer with none", () => {
    expect(parseModelAnswer(JSON.stringify([item, { content: "x", category: "tip" }]))).toEqual(Either.right({ candidates: [item], invalid: 1 }))
    expect(parseModelAnswer(JSON.stringify([{ ...item, cues: ["1", "2", "3", "4", "5", "6"] }]))).toMatchObject(Either.left(expect.stringContaining("none of its 1 memories")))
    expect(parseModelAnswer('{"answer": "none"}')).toMatchObject(Either.left(expect.stringContaining("not with a JSON array")))
    expect(parseModelAnswer("Nothing here is worth keeping.")).toMatchObject(Either.left(expect.stringContaining("not with JSON")))
  })

  it("reads cues as optional, an empty list when left out", () => {
    const { cues: _, ...bare } = item
    expect(parseModelAnswer(JSON.stringify([bare]))).toEqual(Either.right({ candidates: [{ ...bare, cues: [] }], invalid: 0 }))
  })
})

describe("the guard against invention", () => {
  const sent = "user: Add the health endpoint. We use pnpm, not npm.\n\nagent: Done. I’ll   remember that the\nAPI runs on port 8080."
  const withEvidence = (evidence: string): Candidate => ({ ...item, evidence })

  it("keeps a quote found in the text, whatever its case, spacing or quote marks, and one elided with an ellipsis", () => {
    const quotes = ["We use pnpm, not npm.", "we use PNPM,  not npm", "“I'll remember that the API runs on port 8080.”", "Add the health endpoint... not npm"]
    expect(groundedIn(sent, quotes.map(withEvidence))).toEqual({ kept: quotes.map(withEvidence), unfounded: 0 })
  })

  it("drops a quote the text never said, pieces out of order, and one too short to show anything", () => {
    const quotes = ["We use yarn.", "not npm ... Add the health endpoint", "pnpm"]
    expect(groundedIn(sent, quotes.map(withEvidence))).toEqual({ kept: [], unfounded: 3 })
  })
})
