/**
 * How well rules stated in prompts are found: precision and recall of the extractor
 * (src/capture/prompt-rules.ts) on the committed table bench/capture/prompts.jsonl, with each
 * false rule and each miss listed. Goals: precision at least 0.95, recall at least 0.60.
 *
 *   node bench/run.mjs capture-rules
 */
import { observedRules } from "../src/capture/prompt-rules.js"
import { loadPromptCases, scoreRules } from "./capture/score.js"

const cases = loadPromptCases()
const s = scoreRules(cases, observedRules)
console.log(`capture-rules: ${cases.length} prompts, ${s.expected} rules in them; found ${s.found}, ${s.right} of them right`)
console.log(`precision ${s.precision.toFixed(3)} (goal 0.95), recall ${s.recall.toFixed(3)} (goal 0.60)`)
console.log(`of the right ones: category right ${s.categoryRight}/${s.right}, scope right ${s.scopeRight}/${s.right}`)
for (const batch of [1, 2]) {
  const b = scoreRules(cases.filter((c) => (c.batch ?? 1) === batch), observedRules)
  console.log(`  batch ${batch}: precision ${b.precision.toFixed(3)}, recall ${b.recall.toFixed(3)} (${b.right} of ${b.expected} rules, ${b.found} found)`)
}
for (const w of s.wrong) console.log(`  ${w.id} ${w.kind}: ${JSON.stringify(w.text)}`)
