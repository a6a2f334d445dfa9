/**
 * Keeps the rules a person states in a prompt (prompt-rules.ts) as observed memories: tentative
 * until a person accepts one (`mem review`) or a later conversation states it again, which the
 * ordinary write path counts as a confirmation. Each goes through `remember`, so the privacy
 * scan, restatement and near-duplicate checks apply exactly as for `mem add`.
 *
 * A rule the same conversation already stated is not written again: said twice in one session it
 * is still one person's word in one place. Each carries its capture key (capture-key.ts), so the
 * same conversation read again, by a later hook or an import, writes nothing. Capture never fails its caller (a hook): a rule the
 * write path refuses is simply not kept.
 */
import { Effect } from "effect"
import { Operations, type Caller } from "../api/operations.js"
import { restatementKey } from "../domain/text.js"
import { captureOf, captureWasOff, excerpt, wrote } from "./capture-key.js"
import { observedRules } from "./prompt-rules.js"

export interface CapturedRules {
  /** The restatement keys of every rule this conversation has stated, those just found included. */
  readonly stated: ReadonlyArray<string>
  /** How many memories this prompt added or confirmed. */
  readonly written: number
}

/** `from`: the transcript file and line the prompt was read from, when it came from an import. */
export const captureRules = (
  prompt: string,
  stated: ReadonlyArray<string>,
  caller: Caller,
  from?: string
): Effect.Effect<CapturedRules, never, Operations> =>
  Effect.gen(function* () {
    const ops = yield* Operations
    const seen = new Set(stated)
    let written = 0
    for (const rule of observedRules(prompt)) {
      const key = restatementKey(rule.text)
      if (seen.has(key)) continue
      const scope = rule.scope === "global" || caller.project === null ? "global" : "project"
      const capture = captureOf("prompt-rule", key, excerpt(prompt, 600, rule.text), from)
      const result = yield* Effect.either(ops.remember({ content: rule.text, category: rule.category, scope, source: "observed", capture }, caller))
      // With capture off the rule is not kept as stated: turned back on, the next statement counts.
      if (!captureWasOff(result)) seen.add(key)
      if (wrote(result)) written++
    }
    return { stated: [...seen], written }
  })
