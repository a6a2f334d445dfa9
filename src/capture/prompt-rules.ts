/**
 * Rules a person states to an agent in passing ("never push to main, open a PR"), found in the
 * text of their prompt without a model, so they can be kept as observed, tentative memories.
 *
 * A miss costs less than a false rule, which would be shown in every later session: so a
 * sentence counts only when it opens with a normative form (always/never, don't, make sure to,
 * from now on, prefer, we use X not Y, stop doing) and is nothing else: not a question, not in a
 * code block or a quotation, not a hypothetical or a report of what someone said, not a one-off
 * request about the task at hand ("don't change anything yet").
 */

export type RuleCategory = "preference" | "convention" | "command"

export interface ObservedRule {
  /** The sentence that states the rule, as the person wrote it. */
  readonly text: string
  readonly category: RuleCategory
  /** `global` when the sentence says it holds everywhere, not only in this project. */
  readonly scope: "project" | "global"
}

export const observedRules = (prompt: string): ObservedRule[] =>
  sentencesOf(prompt).flatMap((sentence) => {
    const core = withoutOpeners(sentence)
    if (!statesRule(sentence, core)) return []
    return [{ text: sentence, category: categoryOf(core), scope: GLOBAL.test(core) ? "global" : "project" }]
  })

/** Sentences outside fenced code and quoted lines ("> ..."), each trimmed. */
const sentencesOf = (prompt: string): string[] =>
  prompt
    .replace(/```[\s\S]*?(```|$)/g, "\n")
    .split("\n")
    .filter((line) => !/^\s*>/.test(line))
    .flatMap((line) => line.split(/(?<=[.!?])\s+(?=\S)/))
    .map((s) => s.trim())
    .filter((s) => s.length > 0)

/** Acknowledgements and fillers a rule may open with: "Ok, also please never ...". */
const withoutOpeners = (sentence: string): string => {
  let core = sentence
  for (;;) {
    const next = core.replace(/^(ok(ay)?|thanks|thank you|also|and|so|btw|please|oh)\b[,.!]?\s*/i, "")
    if (next === core) return core
    core = next
  }
}

const statesRule = (sentence: string, core: string): boolean =>
  !sentence.endsWith("?") &&
  !/["“”]/.test(sentence) &&
  !ONE_OFF.test(core) &&
  NORMATIVE.some((form) => form.test(core))

/**
 * Words that tie a request to the task at hand rather than to every later one. "This codebase"
 * or "this repo" is where a rule holds; "this PR" or "this file" is the work of the moment.
 */
const ONE_OFF =
  /\b(yet|for now|right now|this time|today|until|you gave|you suggested|(first|second|third|last|other) (one|option|version)|(in|for) this (pr|pull request|change|commit|branch|file|function|method|task|ticket|session|diff))\b/i

/**
 * Words after "always" or "never" that make it a description ("always the same error", "never
 * seen this"), not an instruction: an instruction goes on with a verb's plain form.
 */
const NOT_A_VERB = "the|a|an|this|that|these|those|same|mind|had|has|have|was|were|is|are|been|seen|done|gone|again|once|\\w+ing|\\w+ed"

const NORMATIVE: ReadonlyArray<RegExp> = [
  // "From now on it works" reports; "from now on, run the linter" asks.
  /^(from now on|going forward|in the future|in all (my|our) (projects|repos)|in every (repo|project)),? (?!(it|this|that|the|there|things|everything)\b)\w/i,
  new RegExp(`^((we|you|i) (should |must )?)?(always|never) (?!(${NOT_A_VERB})\\b)\\w`, "i"),
  /^(don'?t|do not) (?!(worry|forget|stop|bother|mind)\b)\w/i,
  /^(make sure|be sure) (to|you|every|all|each)\b/i,
  /^avoid\b/i,
  /^remember (to|that)\b/i,
  /^i want you to (always|never)\b/i,
  /^prefer\b/i,
  /^(i|we) (prefer|like|'d rather|would rather)\b|^i'd rather\b/i,
  /^(we )?use\b.*(, not |, never | instead of | rather than )/i,
  /^stop \w+ing\b/i
]

const GLOBAL = /\b(in all (my|our)? ?(projects|repos)|in (every|any) (repo|project)|everywhere|across (all )?projects|globally)\b/i

/** A preference is about how the person wants to be served; a command names one to run. */
const categoryOf = (core: string): RuleCategory => {
  if (/^(prefer|i prefer|we prefer|i like|i want you|i'd rather|i would rather|we'd rather)\b/i.test(core)) return "preference"
  if (/\b(me|my)\b/i.test(core) || /^(from now on,? |in all (my|our) projects,? )?(answer|reply|respond|talk|explain)\b/i.test(core)) return "preference"
  if (/`[^`]*\s[^`]*`/.test(core)) return "command"
  return "convention"
}
