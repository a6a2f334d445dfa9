/**
 * Token counts with a real tokenizer (cl100k_base from gpt-tokenizer), so a context budget
 * means what it says. Loaded on first use: its tables cost ~0.3 s, which only `context` pays.
 */
import { createRequire } from "node:module"

type Counter = (text: string) => number
let counter: Counter | undefined

export const countTokens: Counter = (text) => {
  counter ??= (createRequire(import.meta.url)("gpt-tokenizer/cjs/encoding/cl100k_base") as { countTokens: Counter }).countTokens
  return counter(text)
}
