/** Reading memories: `mem show`, `mem list`, `mem stats`. */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { Queries, type MemoryView, type Stats } from "../../../services/queries.js"
import { memoryDetail, memoryLine } from "../format.js"
import * as O from "../options.js"
import { fromEither, withStore } from "../root.js"

/** JSON shape of a memory for every command that prints one. */
export const memoryJson = (v: MemoryView) => ({ ...v.memory, shortId: v.shortId, evidence: v.evidence ?? null })

export const show = Command.make("show", { id: Args.text({ name: "id" }), json: O.json }, ({ id, json }) =>
  withStore(Effect.flatMap(Queries, (q) => q.show(id)), { json, human: memoryDetail, toJson: memoryJson })
).pipe(Command.withDescription("Show one memory in full"))

export const list = Command.make(
  "list",
  {
    project: O.project,
    category: O.category,
    all: Options.boolean("all").pipe(Options.withDescription("include forgotten and superseded memories")),
    limit: O.limit,
    json: O.json
  },
  (a) =>
    withStore(
      Effect.gen(function* () {
        const category = yield* fromEither(O.parseCategory(a.category))
        const q = yield* Queries
        return yield* q.list({
          all: a.all,
          ...Option.match(a.project, { onNone: () => ({}), onSome: (project) => ({ project }) }),
          ...(category ? { category } : {}),
          ...Option.match(a.limit, { onNone: () => ({}), onSome: (limit) => ({ limit }) })
        })
      }),
      {
        json: a.json,
        human: (views) => (views.length === 0 ? "no memories" : views.map(memoryLine).join("\n")),
        toJson: (views) => views.map(memoryJson)
      }
    )
).pipe(Command.withDescription("List memories, newest first (-p: one project's and global ones)"))

export const stats = Command.make("stats", { json: O.json }, ({ json }) =>
  withStore(
    Effect.flatMap(Queries, (q) => q.stats),
    { json, human: statsText }
  )
).pipe(Command.withDescription("Counts: memories, events, conversations, outcomes"))

const statsText = (s: Stats): string =>
  [
    `store:          ${s.path} (${(s.bytes / 1024).toFixed(0)} KiB)`,
    `events:         ${s.events}`,
    `search:         ${s.search.mode} (embedder ${s.search.embedder}${s.search.vectorsCurrent === false ? ", vectors catch up at the next search" : ""})`,
    `memories:       ${s.memories.live} live, ${s.memories.superseded} superseded, ${s.memories.forgotten} forgotten`,
    `by category:    ${Object.entries(s.byCategory).map(([c, n]) => `${c} ${n}`).join(", ") || "-"}`,
    `projects:       ${s.projects}`,
    `conversations:  ${s.conversations.total} (${s.conversations.forgotten} forgotten)`,
    `outcomes:       ${s.outcomes.worked} worked, ${s.outcomes.failed} failed, ${s.outcomes.partial} partial`,
    `with a record:  ${s.records.memories} memories, ${s.records.gated} held back by the failure gate`
  ].join("\n")
