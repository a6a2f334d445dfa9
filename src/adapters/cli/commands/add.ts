/** `mem add TEXT`: store a memory, or confirm the same memory said again. */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { Source } from "../../../domain/vocabulary.js"
import { detectProject } from "../../../project/identity.js"
import { Commands } from "../../../services/commands.js"
import { privacyNotice } from "../format.js"
import { UsageError } from "../output.js"
import * as O from "../options.js"
import { fromEither, withStore } from "../root.js"

export const add = Command.make(
  "add",
  {
    text: Args.text({ name: "text" }).pipe(Args.withDescription("the memory, 1 to 10,000 characters")),
    category: O.category,
    project: O.project,
    global: Options.boolean("global").pipe(Options.withDescription("a memory for every project")),
    tags: O.tags,
    origin: O.origin,
    agent: O.agent,
    source: Options.choice("source", Source.literals).pipe(Options.withDefault("explicit" as const)),
    confirms: Options.text("confirms").pipe(Options.withDescription("this restates memory ID"), Options.optional),
    supersedes: Options.text("supersedes").pipe(Options.withDescription("this replaces memory ID"), Options.optional),
    distinctFrom: Options.text("distinct-from").pipe(Options.withDescription("this differs from look-alike memory ID"), Options.optional),
    json: O.json
  },
  (a) =>
    withStore(
      Effect.gen(function* () {
        if (a.global && Option.isSome(a.project)) return yield* Effect.fail(new UsageError("give --project or --global, not both"))
        const category = yield* fromEither(O.parseCategory(a.category))
        const project = a.global ? null : Option.getOrElse(a.project, () => detectProject(process.cwd()))
        const commands = yield* Commands
        return yield* commands.add(
          {
            content: a.text,
            scope: project === null ? "global" : "project",
            project,
            tags: a.tags,
            source: a.source,
            ...(category ? { category } : {}),
            ...Option.match(a.confirms, { onNone: () => ({}), onSome: (confirms) => ({ confirms }) }),
            ...Option.match(a.supersedes, { onNone: () => ({}), onSome: (supersedes) => ({ supersedes }) }),
            ...Option.match(a.distinctFrom, { onNone: () => ({}), onSome: (distinctFrom) => ({ distinctFrom }) })
          },
          { origin: a.origin, agent: a.agent }
        )
      }),
      {
        json: a.json,
        human: (r) => (r.stored ? `stored ${r.id}` : `already known: confirmed ${r.id} (${r.confirmations} confirmations)`),
        notice: (r) => privacyNotice(r.privacy)
      }
    )
).pipe(Command.withDescription("Store a memory (an exact restatement confirms the existing one)"))
