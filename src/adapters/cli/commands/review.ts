/**
 * Reviewing what memledger noticed rather than was told: `mem review` lists the tentative
 * memories (observed or extracted, not yet confirmed), `accept` confirms one as a person, and
 * `reject` forgets it; all three through the one `review` operation every surface shares.
 */
import { Command } from "@effect/cli"
import { Effect } from "effect"
import { callOperation } from "../../../api/call-operation.js"
import type { Memory } from "../../../api/memory-wire.js"
import { oneLine } from "../format.js"
import * as O from "../options.js"
import { callerOf, withOperations } from "../root.js"
import { withShortIds } from "../short-ids.js"
import { memoryJson } from "./inspect.js"

export const reviewAccept = Command.make("accept", { id: O.memoryId(), json: O.json }, (a) =>
  withOperations(withShortIds(a.json, callOperation("review", { accept: [a.id] }, callerOf()), (r) => r.accepted), {
    json: a.json,
    human: ({ value: r, short }) => r.accepted.map((id) => `accepted ${short(id)}: confirmed, no longer tentative`).join("\n"),
    toJson: ({ value }) => value
  })
).pipe(Command.withDescription("Confirm a tentative memory: it counts as said by a person"))

export const reviewReject = Command.make("reject", { id: O.memoryId(), json: O.json }, (a) =>
  withOperations(withShortIds(a.json, callOperation("review", { reject: [a.id] }, callerOf()), (r) => r.rejected), {
    json: a.json,
    human: ({ value: r, short }) => r.rejected.map((id) => `rejected ${short(id)}: forgotten (undo: mem restore ${short(id)})`).join("\n"),
    toJson: ({ value }) => value
  })
).pipe(Command.withDescription("Forget a tentative memory ('mem restore' brings it back)"))

export const review = Command.make(
  "review",
  { project: O.project, limit: O.limit(`at most this many, ${O.RANGES.recallLimit.join(" to ")} (default 20)`), json: O.json },
  (a) =>
    withOperations(
      Effect.zipRight(
        O.checkRange("--limit", a.limit, ...O.RANGES.recallLimit),
        callOperation("review", { ...O.some("limit", a.limit), ...O.some("project", a.project) }, callerOf())
      ),
      { json: a.json, human: ({ tentative }) => reviewText(tentative), toJson: ({ tentative }) => tentative.map(memoryJson) }
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
