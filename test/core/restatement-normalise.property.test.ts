/** The restatement normalisation cuts trailing punctuation with a loop; it must equal the regular expression it replaced. */
import fc from "fast-check"
import { expect, it } from "vitest"
import { normaliseForRestatement } from "../../src/domain/text.js"

const byRegex = (content: string): string =>
  content.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim().replace(/[\s.!?;:,…]+$/u, "")

const pieces = fc.constantFrom("a", "Run", " ", "  ", "\t", "\n", ".", "!", "?", ";", ":", ",", "…", "\u00a0", "ﬁ", "É", "-", "x.y")

it("equals the regular-expression definition on any text", () => {
  fc.assert(
    fc.property(fc.oneof(fc.array(pieces, { maxLength: 20 }).map((p) => p.join("")), fc.string(), fc.string({ unit: "grapheme" })), (text) => {
      expect(normaliseForRestatement(text)).toBe(byRegex(text))
    }),
    { numRuns: 2_000 }
  )
})
