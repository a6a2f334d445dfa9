/** Changing memories: `mem edit`, `confirm`, `supersede`, `forget`, `restore`, `outcome`. */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { callOperation } from "../../../api/call-operation.js"
import { OUTCOMES } from "../../../domain/vocabulary.js"
import { count, privacyNotice } from "../format.js"
import { UsageError } from "../output.js"
import * as O from "../options.js"
import { callerOf, withOperations } from "../root.js"
import { withShortIds } from "../short-ids.js"

const id = O.memoryId()
const reason = Options.text("reason").pipe(Options.withDescription("why, kept with the event"), Options.withDefault(""))

export const edit = Command.make(
  "edit",
  {
    id,
    content: Options.text("content").pipe(Options.withDescription("the new text, 1 to 10,000 characters"), Options.optional),
    category: O.category,
    tags: O.tags,
    cues: O.cues,
    noCues: Options.boolean("no-cues").pipe(Options.withDescription("remove the memory's written cues")),
    visibility: Options.choice("visibility", ["shared", "private"] as const).pipe(
      Options.withDescription("shared: everyone on the server sees it; private: only tokens of your own name (needs MEMLEDGER_URL and your token)"),
      Options.optional
    ),
    origin: O.origin,
    agent: O.agent,
    json: O.json
  },
  (a) =>
    withOperations(
      Effect.suspend(() => {
        if (a.noCues && a.cues.length > 0) return Effect.fail(new UsageError("give --cue or --no-cues, not both"))
        if (Option.isNone(a.content) && Option.isNone(a.category) && a.tags.length === 0 && a.cues.length === 0 && !a.noCues && Option.isNone(a.visibility)) {
          return Effect.fail(new UsageError("nothing to change: give --content, --category, --tag, --cue, --no-cues or --visibility"))
        }
        const cues = a.noCues ? { cues: [] } : a.cues.length > 0 ? { cues: a.cues } : {}
        const edited = callOperation(
          "edit",
          {
            id: a.id,
            ...O.some("content", a.content),
            ...O.some("category", a.category),
            ...(a.tags.length > 0 ? { tags: a.tags } : {}),
            ...cues,
            ...O.some("visibility", a.visibility)
          },
          callerOf(a)
        )
        return Effect.zipRight(
          Effect.all([O.checkWho(a), O.checkTags(a.tags)], { discard: true }),
          withShortIds(a.json, edited, (r) => [r.id])
        )
      }),
      {
        json: a.json,
        human: ({ value: r, short }) => (r.changed ? `revised ${short(r.id)}` : `${short(r.id)} already says that; nothing changed`),
        toJson: ({ value }) => value,
        notice: ({ value }) => privacyNotice(value.privacy)
      }
    )
).pipe(Command.withDescription("Revise a memory's content, category, tags or written cues (tags and cues given replace the old ones)"))

export const confirm = Command.make("confirm", { id, origin: O.origin, agent: O.agent, json: O.json }, (a) =>
  withOperations(
    Effect.zipRight(O.checkWho(a), callOperation("confirm", { id: a.id }, callerOf(a))),
    { json: a.json, human: (r) => `confirmed ${r.shortId}${"confirmations" in r ? ` (${count(r.confirmations, "confirmation")})` : ""}` }
  )
).pipe(Command.withDescription("Say a memory again: it counts one more confirmation"))

export const supersede = Command.make(
  "supersede",
  {
    ids: Args.text({ name: "old new" }).pipe(Args.withDescription("the memory replaced, then the one that replaces it (ids or unique prefixes)"), Args.repeated),
    origin: O.origin,
    agent: O.agent,
    json: O.json
  },
  (a) =>
    withOperations(
      Effect.suspend(() => {
        const [old, by, ...extra] = a.ids
        if (old === undefined || by === undefined || extra.length > 0) return Effect.fail(new UsageError("usage: mem supersede OLD NEW"))
        const superseded = callOperation("supersede", { id: old, by }, callerOf(a))
        return Effect.zipRight(O.checkWho(a), withShortIds(a.json, superseded, (r) => [r.id, r.supersededBy]))
      }),
      {
        json: a.json,
        human: ({ value: r, short }) => `${short(r.id)} is superseded by ${short(r.supersededBy)}`,
        toJson: ({ value }) => value
      }
    )
).pipe(Command.withDescription("Replace memory OLD by memory NEW"))

export const forget = Command.make("forget", { id, reason, origin: O.origin, agent: O.agent, json: O.json }, (a) =>
  withOperations(
    Effect.zipRight(O.checkWho(a), withShortIds(a.json, callOperation("forget", { memory_id: a.id, reason: a.reason }, callerOf(a)), (r) => [r.id])),
    {
      json: a.json,
      human: ({ value: r, short }) => (r.changed ? `forgot ${short(r.id)} (undo: mem restore ${short(r.id)})` : `${short(r.id)} was already forgotten`),
      toJson: ({ value }) => value
    }
  )
).pipe(Command.withDescription("Archive a memory; 'mem restore' brings it back"))

export const restore = Command.make("restore", { id, reason, origin: O.origin, agent: O.agent, json: O.json }, (a) =>
  withOperations(
    Effect.zipRight(O.checkWho(a), withShortIds(a.json, callOperation("restore", { memory_id: a.id, reason: a.reason }, callerOf(a)), (r) => [r.id])),
    {
      json: a.json,
      human: ({ value: r, short }) => (r.changed ? `restored ${short(r.id)}` : `${short(r.id)} was not forgotten`),
      toJson: ({ value }) => value
    }
  )
).pipe(Command.withDescription("Bring back a forgotten memory"))

export const outcome = Command.make(
  "outcome",
  {
    args: Args.text({ name: "id... worked|failed|partial" }).pipe(
      Args.withDescription("one or more memory ids (or unique prefixes), then worked, failed or partial"),
      Args.atLeast(2)
    ),
    task: Options.text("task").pipe(Options.withDescription("the task this outcome belongs to, e.g. a Beads issue"), Options.optional),
    note: Options.text("note").pipe(Options.withDescription("a short note on what happened"), Options.optional),
    origin: O.origin,
    agent: O.agent,
    json: O.json
  },
  (a) =>
    withOperations(
      Effect.suspend(() => {
        const ids = a.args.slice(0, -1)
        const result = a.args[a.args.length - 1]!
        if (!(OUTCOMES as ReadonlyArray<string>).includes(result)) {
          return Effect.fail(new UsageError(`the last argument must be worked, failed or partial, not '${result}'`))
        }
        const recorded = callOperation("recordOutcome", { memory_ids: ids, outcome: result, ...O.some("task", a.task), ...O.some("note", a.note) }, callerOf(a))
        return Effect.zipRight(O.checkWho(a), withShortIds(a.json, recorded, (r) => r.memory_ids))
      }),
      {
        json: a.json,
        human: ({ value: r, short }) => `recorded ${r.outcome} for ${r.memory_ids.map(short).join(", ")}`,
        // `memoryIds` is this command's name for them since before the wire's `memory_ids`.
        toJson: ({ value: r }) => ({ memoryIds: r.memory_ids, ...r })
      }
    )
).pipe(Command.withDescription("Record whether the advice of one or more memories worked"))
