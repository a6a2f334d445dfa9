/**
 * Protects the reach of the instruction-like flag beyond English "ignore previous instructions":
 * every instruction of the table (credential files and keys, data sent to an outside address,
 * orders to disregard instructions; English, French, German, Spanish) is flagged, and at least
 * 90% of the command memories beside them, in each language, are not.
 */
import { describe, expect, it } from "vitest"
import { instructionLikeReasons } from "../../src/privacy/instruction-like.js"
import { INSTRUCTION_TABLE, type Language } from "./instruction-table.js"

const LANGUAGES = Object.keys(INSTRUCTION_TABLE) as Language[]

describe.each(LANGUAGES)("the instruction table in %s", (language) => {
  const { flagged, benign } = INSTRUCTION_TABLE[language]

  it("has at least ten rows of each kind", () => {
    expect(flagged.length).toBeGreaterThanOrEqual(10)
    expect(benign.length).toBeGreaterThanOrEqual(10)
  })

  it.each(flagged)("flags %j", (text) => {
    expect(instructionLikeReasons(text)).not.toEqual([])
  })

  it("leaves at least 90% of the command memories unflagged", () => {
    const wronglyFlagged = benign.filter((text) => instructionLikeReasons(text).length > 0)
    const share = (benign.length - wronglyFlagged.length) / benign.length
    expect(share, `flagged: ${JSON.stringify(wronglyFlagged)}`).toBeGreaterThanOrEqual(0.9)
  })
})
