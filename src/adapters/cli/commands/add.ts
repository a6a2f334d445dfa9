/**
 * `mem add TEXT`: remember a memory. An exact restatement confirms the existing one; a
 * near-duplicate stores nothing and lists the look-alikes, to be resolved with
 * --confirms, --supersedes or --distinct-from. That answer exits 0: nothing failed, the store
 * decided what to do with the write (as when it confirms instead of storing) and said so, and
 * `"stored": false` is what a script checks in either case.
 */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { callOperation } from "../../../api/call-operation.js"
import type { RememberOutput } from "../../../api/outputs.js"
import { Source } from "../../../domain/vocabulary.js"
import { count, oneLine, privacyNotice } from "../format.js"
import { UsageError } from "../output.js"
import * as O from "../options.js"
import { callerOf, CREATES, withOperations } from "../root.js"

/** What to do about near-duplicates, in this command's own options. */
export const RESOLVE_SIMILAR_CLI =
  "run mem add again with --confirms ID (it says the same), --supersedes ID (it replaces that memory) or --distinct-from ID (it differs)"

export const add = Command.make(
  "add",
  {
    text: Args.text({ name: "text" }).pipe(Args.withDescription("the memory, 1 to 10,000 characters")),
    category: O.category,
    project: O.project,
    global: Options.boolean("global").pipe(Options.withDescription("a memory for every project")),
    tags: O.tags,
    cues: O.cues,
    origin: O.origin,
    agent: O.agent,
    source: Options.choice("source", Source.literals).pipe(
      Options.withDescription("how it was learned: explicit (said outright), observed, extracted or imported"),
      Options.withDefault("explicit" as const)
    ),
    confirms: Options.text("confirms").pipe(Options.withDescription("this restates memory ID"), Options.optional),
    supersedes: Options.text("supersedes").pipe(Options.withDescription("this replaces memory ID"), Options.optional),
    distinctFrom: Options.text("distinct-from").pipe(Options.withDescription("this differs from look-alike memory ID"), Options.optional),
    private: Options.boolean("private").pipe(
      Options.withDescription("seen only through tokens of your own name (needs MEMLEDGER_URL and your MEMLEDGER_TOKEN)")
    ),
    json: O.json
  },
  (a) =>
    withOperations(
      Effect.suspend(() => {
        if (a.global && Option.isSome(a.project)) return Effect.fail(new UsageError("give --project or --global, not both"))
        const related = [a.confirms, a.supersedes, a.distinctFrom].filter(Option.isSome)
        if (related.length > 1) return Effect.fail(new UsageError("give at most one of --confirms, --supersedes and --distinct-from"))
        return Effect.zipRight(
          Effect.all([O.checkWho(a), O.checkTags(a.tags)], { discard: true }),
          callOperation(
            "remember",
            {
              content: a.text,
              ...(a.global ? { scope: "global" } : O.some("project", a.project)),
              ...O.some("category", a.category),
              ...(a.tags.length > 0 ? { tags: a.tags } : {}),
              source: a.source,
              ...O.some("confirms", a.confirms),
              ...O.some("supersedes", a.supersedes),
              ...O.some("distinct_from", a.distinctFrom),
              ...(a.cues.length > 0 ? { cues: a.cues } : {}),
              ...(a.private ? { visibility: "private" as const } : {})
            },
            callerOf(a)
          )
        )
      }),
      { json: a.json, human: rememberText, toJson: rememberJson, notice: (r) => ("privacy" in r ? privacyNotice(r.privacy) : undefined) },
      CREATES
    )
).pipe(Command.withDescription("Store a memory (an exact restatement confirms the existing one; a near-duplicate is shown, not stored)"))

const rememberJson = (r: RememberOutput) => ("similar" in r ? { ...r, resolve: RESOLVE_SIMILAR_CLI } : r)

const rememberText = (r: RememberOutput): string => {
  if ("similar" in r) {
    return [
      "not stored: similar memories exist",
      ...r.similar.map((s) => `  ${s.shortId}  ${s.similarity.toFixed(2)}  [${s.category}] ${oneLine(s.content, 90)}`),
      RESOLVE_SIMILAR_CLI
    ].join("\n")
  }
  if (!r.stored && "reason" in r) return `not stored: ${r.reason}`
  return r.stored ? `stored ${r.shortId}` : `already known: confirmed ${r.shortId} (${count(r.confirmations, "confirmation")})`
}
