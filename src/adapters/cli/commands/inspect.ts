/** Reading memories: `mem show`, `mem list`, `mem stats`. */
import { Command, Options } from "@effect/cli"
import { Effect } from "effect"
import { callOperation } from "../../../api/call-operation.js"
import type { Memory } from "../../../api/memory-wire.js"
import type { StatsOutput } from "../../../api/outputs.js"
import { count, hasOutcomes, memoryDetail, memoryLine } from "../format.js"
import * as O from "../options.js"
import { callerOf, withOperations } from "../root.js"
import { withShortIds } from "../short-ids.js"
import { captureSourcesOf, sourceLines } from "../capture-sources.js"
import type { Operations } from "../../../api/operations.js"

/**
 * JSON shape of a memory for every command that prints one: the wire memory with its outcome
 * counts as `evidence` (null without outcomes), as this command has always printed them. The
 * decayed `record` is left out: it changes by the millisecond, and two `show`s of the same
 * memory (in a store and in its replay) should print the same thing.
 */
export const memoryJson = ({ record, ...memory }: Memory) => ({
  ...memory,
  evidence: hasOutcomes(record)
    ? { workedCount: record.workedCount, failedCount: record.failedCount, partialCount: record.partialCount, gated: record.gated }
    : null
})

/** The memory read with where capture found it, when it did. */
const withSources = <A extends { readonly memory: Memory }, E>(read: Effect.Effect<A, E, Operations>) =>
  Effect.flatMap(read, (value) => Effect.map(captureSourcesOf([value.memory.id]), (sources) => ({ ...value, captured: sources.get(value.memory.id) ?? [] })))

/** Reads the memory with its cues, so that the learned ones are shown beside the written ones. */
export const show = Command.make("show", { id: O.memoryId(), json: O.json }, ({ id, json }) =>
  withOperations(
    withShortIds(json, withSources(callOperation("cues", { id }, callerOf())), ({ memory: m }) => [...(m.supersededBy ? [m.supersededBy] : []), ...m.distinctFrom]),
    {
      json,
      human: ({ value, short }) => [memoryDetail(value.memory, short, value.cues), ...sourceLines(value.captured, "")].join("\n"),
      toJson: ({ value }) => ({ ...memoryJson(value.memory), ...(value.captured.length === 0 ? {} : { captured: value.captured }) })
    }
  )
).pipe(Command.withDescription("Show one memory in full, its written and learned cues included"))

export const list = Command.make(
  "list",
  {
    project: O.project,
    category: O.category,
    all: Options.boolean("all").pipe(Options.withDescription("include forgotten and superseded memories")),
    limit: O.limit(`at most this many memories, ${O.RANGES.listLimit.join(" to ")} (default ${O.RANGES.listLimit[1]})`),
    json: O.json
  },
  (a) =>
    withOperations(
      Effect.zipRight(
        O.checkRange("--limit", a.limit, ...O.RANGES.listLimit),
        callOperation("list", { all: a.all, ...O.some("project", a.project), ...O.some("category", a.category), ...O.some("limit", a.limit) }, callerOf())
      ),
      {
        json: a.json,
        human: ({ memories, more }) =>
          memories.length === 0 ? "no memories" : [...memories.map(memoryLine), ...(more ? [`… ${MORE_NOT_SHOWN}`] : [])].join("\n"),
        toJson: ({ memories }) => memories.map(memoryJson),
        notice: ({ more }) => (a.json && more ? MORE_NOT_SHOWN : undefined)
      }
    )
).pipe(Command.withDescription("List memories, newest first (-p: one project's and global ones)"))

const MORE_NOT_SHOWN = `more memories not shown (--limit N shows more, up to ${O.RANGES.listLimit[1]}; -p or -c narrows the list)`

export const stats = Command.make("stats", { json: O.json }, ({ json }) =>
  withOperations(callOperation("stats", {}, callerOf()), { json, human: statsText })
).pipe(Command.withDescription("Counts: memories, events, conversations, outcomes"))

const statsText = (s: StatsOutput): string =>
  [
    `store:          ${s.path} (${(s.bytes / 1024).toFixed(0)} KiB)`,
    `events:         ${s.events}`,
    `search:         ${s.search.mode} (embedder ${s.search.embedder}${s.search.vectorsCurrent === false ? ", vectors catch up at the next search" : ""})`,
    `memories:       ${s.memories.live} live, ${s.memories.superseded} superseded, ${s.memories.forgotten} forgotten`,
    `by category:    ${Object.entries(s.byCategory).map(([c, n]) => `${c} ${n}`).join(", ") || "-"}`,
    `projects:       ${s.projects}`,
    `conversations:  ${s.conversations.total} (${s.conversations.forgotten} forgotten)`,
    `outcomes:       ${s.outcomes.worked} worked, ${s.outcomes.failed} failed, ${s.outcomes.partial} partial`,
    `with a record:  ${count(s.records.memories, "memory", "memories")}, ${s.records.gated} held back by the failure gate`
  ].join("\n")
