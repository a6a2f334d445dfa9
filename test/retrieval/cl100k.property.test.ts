/**
 * memledger's cl100k counter gives gpt-tokenizer's count for every text: the context budgets
 * were set, and are documented, in gpt-tokenizer's tokens. Random texts of every kind (lone
 * surrogates, byte order marks, emoji, scripts without spaces, runs of digits, whitespace and punctuation), the
 * texts a context is made of, and the special tokens gpt-tokenizer refuses.
 */
import { createRequire } from "node:module"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { cl100kCounter, piecesIn } from "../../src/retrieval/cl100k.js"
import { buildTokenTable, gptTokenizerRanks, readTokenTable } from "../../src/retrieval/token-table.js"

const reference = (createRequire(import.meta.url)("gpt-tokenizer/cjs/encoding/cl100k_base") as { countTokens: (text: string) => number }).countTokens
const count = cl100kCounter(readTokenTable(buildTokenTable(gptTokenizerRanks()))!)

/** What gpt-tokenizer answers: a count, or the error it throws. */
const outcome = (countOf: (text: string) => number, text: string): number | string => {
  try {
    return countOf(text)
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

const fragments = fc.constantFrom(
  " ", "  ", "\n", "\r\n", "\t", "\n\n", "'s", "'LL", "’", "don't", "1234567", "3.14", "café", "naïve", "日本語のテキスト", "中文", "한국어",
  "Привет", "مرحبا", "🙂", "👩‍💻", "🇫🇷", "\u0301", "\ud800", "\udc00", "```", "=>", "!==", "{}", "- [", "](", "...", "—", "<|", "|>", "_", "ß", "İ", "\ufeff", "\ufeffusing", "\ufeff\ufeff//"
)
const mixed = fc.array(fc.oneof(fragments, fc.string({ maxLength: 12 }), fc.string({ unit: "binary", maxLength: 8 }), fc.string({ unit: "grapheme", maxLength: 6 })), { maxLength: 30 }).map((parts) => parts.join(""))

describe("cl100k counts", () => {
  it("equal gpt-tokenizer's for random texts of every kind", () => {
    fc.assert(fc.property(fc.oneof(mixed, fc.string({ unit: "binary", maxLength: 200 }), fc.string({ unit: "grapheme", maxLength: 100 })), (text) => {
      expect(outcome(count, text)).toBe(outcome(reference, text))
    }), { numRuns: 2_000 })
  })

  it("equal gpt-tokenizer's for the texts a context is made of", () => {
    const texts = [
      "",
      "## Memories from memledger\nThese are notes from earlier sessions, quoted as data.",
      '- [01jq3k9x] (command, github.com/acme/app) "Run `npm run test:int` before pushing"',
      "\n### Rules (confirmed)\nConventions:",
      "a".repeat(3_000),
      "1".repeat(1_000),
      " ".repeat(500) + "x",
      "\n".repeat(40),
      "supercalifragilisticexpialidocious".repeat(20),
      "🙂".repeat(300)
    ]
    for (const text of texts) expect(count(text), text.slice(0, 40)).toBe(reference(text))
  })

  it("are never fewer than a text's words, the floor context.ts skips candidates by", () => {
    fc.assert(fc.property(fc.oneof(mixed, fc.string({ unit: "binary", maxLength: 200 })), (text) => {
      fc.pre(typeof outcome(reference, text) === "number")
      expect(count(text)).toBeGreaterThanOrEqual(text.match(/\S+/g)?.length ?? 0)
    }), { numRuns: 2_000 })
  })

  it("are never fewer than the pieces the text splits into, which are never fewer than its words: the floors context.ts skips candidates by", () => {
    fc.assert(fc.property(fc.oneof(mixed, fc.string({ unit: "binary", maxLength: 200 }), fc.string({ unit: "grapheme", maxLength: 100 })), (text) => {
      fc.pre(typeof outcome(reference, text) === "number")
      expect(count(text)).toBeGreaterThanOrEqual(piecesIn(text))
      expect(piecesIn(text)).toBeGreaterThanOrEqual(text.match(/\S+/g)?.length ?? 0)
    }), { numRuns: 2_000 })
  })

  it("refuse a special token as gpt-tokenizer does", () => {
    for (const text of ["stop <|endoftext|> here", "<|fim_middle|>", "a<|im_sep|>b<|endoftext|>"]) {
      expect(outcome(count, text)).toBe(outcome(reference, text))
      expect(typeof outcome(count, text)).toBe("string")
    }
  })
})
