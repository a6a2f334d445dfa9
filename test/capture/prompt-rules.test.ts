/**
 * The prompt-rule extractor against its table (bench/capture/prompts.jsonl): a false rule would
 * be shown in every later session, so precision must stay at 0.95 or more; recall at 0.60 or more.
 */
import { expect, it } from "vitest"
import { observedRules } from "../../src/capture/prompt-rules.js"
import { loadPromptCases, scoreRules } from "../../bench/capture/score.js"

const cases = loadPromptCases()
const score = scoreRules(cases, observedRules)

it("holds at least 60 prompts, rules and non-rules alike", () => {
  expect(cases.length).toBeGreaterThanOrEqual(60)
  expect(cases.filter((c) => c.rules.length === 0).length).toBeGreaterThanOrEqual(25)
})

it("finds rules with precision at least 0.95 and recall at least 0.60", () => {
  expect(score.precision, JSON.stringify(score.wrong.filter((w) => w.kind === "false rule"))).toBeGreaterThanOrEqual(0.95)
  expect(score.recall, JSON.stringify(score.wrong.filter((w) => w.kind === "missed"))).toBeGreaterThanOrEqual(0.6)
})

it("gives most rules found their category and scope", () => {
  expect(score.categoryRight / score.right).toBeGreaterThanOrEqual(0.8)
  expect(score.scopeRight / score.right).toBeGreaterThanOrEqual(0.9)
})

it("finds nothing in a question, a code block, a quotation or a hypothetical", () => {
  for (const prompt of [
    "Should we never use default exports?",
    "```\n// always validate input\n```",
    "> Never push to main",
    "The README says \"always run make setup first\".",
    "If we never merge this branch, the migration stays.",
    "He said we never deploy on Fridays.",
    "From now on it should build faster."
  ]) expect(observedRules(prompt), prompt).toEqual([])
})

it("keeps the rule's sentence as written, and says global only when the person does", () => {
  expect(observedRules("Thanks. Never hardcode the API URL, everywhere.")).toEqual([{ text: "Never hardcode the API URL, everywhere.", category: "convention", scope: "global" }])
  expect(observedRules("Always run `pnpm lint` first.")).toEqual([{ text: "Always run `pnpm lint` first.", category: "command", scope: "project" }])
})
