/**
 * Reviewing what memledger noticed rather than was told: `mem review` lists the tentative
 * memories (observed or extracted, not yet confirmed), `accept` confirms one as a person, and
 * `reject` forgets it.
 */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { callOperation } from "../../../api/call-operation.js"
import type { Memory } from "../../../api/memory-wire.js"
import { REJECTED_IN_REVIEW } from "../../../api/operations.js"
import { oneLine } from "../format.js"
import * as O from "../options.js"
import { callerOf, withOperations } from "../root.js"
import { withShortIds } from "../short-ids.js"
import { memoryJson } from "./inspect.js"

export const reviewAccept = Command.make("accept", { id: O.memoryId(), json: O.json }, (a) =>
  withOperations(callOperation("confirm", { id: a.id }, callerOf()), { json: a.json, human: (r) => `accepted ${r.shortId}: confirmed, no longer tentative` })
).pipe(Command.withDescription("Confirm a tentative memory: it counts as said by a person"))

export const reviewReject = Command.make("reject", { id: O.memoryId(), json: O.json }, (a) =>
  withOperations(withShortIds(a.json, callOperation("forget", { memory_id: a.id, reason: REJECTED_IN_REVIEW }, callerOf()), (r) => [r.id]), {
    json: a.json,
    human: ({ value: r, short }) => (r.changed ? `rejected ${short(r.id)}: forgotten (undo: mem restore ${short(r.id)})` : `${short(r.id)} was already forgotten`),
    toJson: ({ value }) => value
  })
).pipe(Command.withDescription("Forget a tentative memory ('mem restore' brings it back)"))

export const review = Command.make(
  "review",
  { project: O.project, limit: O.limit(`at most this many, ${O.RANGES.listLimit.join(" to ")} (default 50)`), json: O.json },
  (a) =>
    withOperations(
      Effect.zipRight(
        O.checkRange("--limit", a.limit, ...O.RANGES.listLimit),
        callOperation("list", { status: "tentative", limit: a.limit._tag === "Some" ? a.limit.value : 50, ...O.some("project", a.project) }, callerOf())
      ),
      { json: a.json, human: ({ memories }) => reviewText(memories), toJson: ({ memories }) => memories.map(memoryJson) }
    )
).pipe(
  Command.withDescription("List tentative memories, newest first, with where each came from; accept or reject them"),
  Command.withSubcommands([reviewAccept, reviewReject])
)

const reviewText = (memories: ReadonlyArray<Memory>): string =>
  memories.length === 0
    ? "nothing to review: no tentative memory"
    : [
        ...memories.map((m) => `${m.shortId}  [${m.category}] ${oneLine(m.content, 90)}\n          ${m.source} from ${m.origin}, ${m.createdAt.slice(0, 10)}`),
        "",
        "mem review accept ID confirms one; mem review reject ID forgets it"
      ].join("\n")
