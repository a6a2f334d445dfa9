/**
 * The vocabulary table: the one the build writes beside the bundles is byte for byte the one
 * built from gpt-tokenizer's ranks where there is none, and a file that is not a table (cut
 * short, or something else) is never read as one.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { buildTokenTable, gptTokenizerRanks, readTokenTable } from "../../src/retrieval/token-table.js"
import { TOKEN_TABLE_FILE } from "../../src/retrieval/tokens.js"

describe("the token table", () => {
  const built = buildTokenTable(gptTokenizerRanks())

  it("the build writes the table built from gpt-tokenizer's ranks, beside the bundles", () => {
    expect(Buffer.compare(readFileSync(`dist/${TOKEN_TABLE_FILE}`), built)).toBe(0)
  })

  it("finds every token by its bytes, and nothing else", () => {
    const table = readTokenTable(built)!
    const encoder = new TextEncoder()
    gptTokenizerRanks().forEach((token, rank) => {
      const bytes = typeof token === "string" ? encoder.encode(token) : Uint8Array.from(token)
      expect(table.rankOf(bytes, 0, bytes.length)).toBe(rank)
      expect(table.isText(rank)).toBe(typeof token === "string")
    })
    expect(table.rankOf(encoder.encode("memledger-not-a-token"), 0, 21)).toBe(-1)
    expect(table.rankOfAscii("hello")).toBe(table.rankOf(encoder.encode("hello"), 0, 5))
  })

  it("refuses a buffer that is not a whole table", () => {
    expect(readTokenTable(built.subarray(0, built.length - 1))).toBeUndefined()
    expect(readTokenTable(new Uint8Array(64))).toBeUndefined()
    expect(readTokenTable(new Uint8Array(3))).toBeUndefined()
  })
})
