/**
 * Token counts with a real tokenizer (cl100k_base, as gpt-tokenizer counts it), so a context
 * budget means what it says. The vocabulary is read on first use: the table the build writes
 * beside the bundle, else one built from gpt-tokenizer's ranks (token-table.ts says why).
 */
import { readFileSync } from "node:fs"
import { cl100kCounter, piecesIn } from "./cl100k.js"
import { buildTokenTable, gptTokenizerRanks, readTokenTable, type TokenTable } from "./token-table.js"

/** Where the build writes the table: beside the bundles, which are the modules that read it. */
export const TOKEN_TABLE_FILE = "cl100k.tokens"

type Counter = (text: string) => number
let counter: Counter | undefined

export const countTokens: Counter = (text) => {
  counter ??= cl100kCounter(tokenTable())
  return counter(text)
}

/** A floor under `countTokens`, a third of its cost: how many pieces the tokenizer splits a text into (cl100k.ts). */
export const tokenFloor: Counter = piecesIn

const tokenTable = (): TokenTable => {
  try {
    const written = readTokenTable(readFileSync(new URL(TOKEN_TABLE_FILE, import.meta.url)))
    if (written !== undefined) return written
  } catch {
    // No table beside this module: build it.
  }
  return readTokenTable(buildTokenTable(gptTokenizerRanks()))!
}
