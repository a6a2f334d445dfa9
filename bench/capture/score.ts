/**
 * Scores the prompt-rule extractor on the table in prompts.jsonl: a found rule is right when its
 * sentence is one the table expects (compared without case, spacing or closing punctuation);
 * precision and recall count sentences, and of the right ones, how many have the expected
 * category and scope.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { ObservedRule } from "../../src/capture/prompt-rules.js"

export interface PromptCase {
  readonly id: string
  readonly prompt: string
  /** 1: written before the extractor; 2: written after it, first measured as it stood. */
  readonly batch?: 1 | 2
  readonly rules: ReadonlyArray<ObservedRule>
}

export interface RuleScore {
  readonly expected: number
  readonly found: number
  readonly right: number
  readonly precision: number
  readonly recall: number
  /** Of the right ones, how many have the expected category, and the expected scope. */
  readonly categoryRight: number
  readonly scopeRight: number
  /** What went wrong, case by case: rules found that were not expected, and rules missed. */
  readonly wrong: ReadonlyArray<{ readonly id: string; readonly text: string; readonly kind: "false rule" | "missed" }>
}

/** Beside this file, or (bundled into bench/.out by bench/run.mjs) where the repository keeps it. */
const tableFile = (): string => {
  const here = join(fileURLToPath(new URL(".", import.meta.url)), "prompts.jsonl")
  return existsSync(here) ? here : join(process.cwd(), "bench", "capture", "prompts.jsonl")
}

export const loadPromptCases = (file = tableFile()): PromptCase[] =>
  readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as PromptCase)

const same = (text: string): string => text.toLowerCase().replace(/\s+/g, " ").replace(/[.!;,\s]+$/, "").trim()

export const scoreRules = (cases: ReadonlyArray<PromptCase>, extract: (prompt: string) => ReadonlyArray<ObservedRule>): RuleScore => {
  let expected = 0, found = 0, right = 0, categoryRight = 0, scopeRight = 0
  const wrong: Array<RuleScore["wrong"][number]> = []
  for (const c of cases) {
    const wanted = new Map(c.rules.map((r) => [same(r.text), r]))
    const got = extract(c.prompt)
    expected += wanted.size
    found += got.length
    for (const rule of got) {
      const match = wanted.get(same(rule.text))
      if (match === undefined) {
        wrong.push({ id: c.id, text: rule.text, kind: "false rule" })
        continue
      }
      right++
      if (match.category === rule.category) categoryRight++
      if (match.scope === rule.scope) scopeRight++
      wanted.delete(same(rule.text))
    }
    for (const missed of wanted.values()) wrong.push({ id: c.id, text: missed.text, kind: "missed" })
  }
  return { expected, found, right, precision: found === 0 ? 1 : right / found, recall: expected === 0 ? 1 : right / expected, categoryRight, scopeRight, wrong }
}
