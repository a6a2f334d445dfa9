/**
 * `mem cues ID`: a memory's cues, each with where it came from (written with the memory, or
 * learned from what a conversation searched before it reported that the memory worked);
 * `--drop TEXT` drops a learned one that finds the memory for the wrong need.
 */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { callOperation } from "../../../api/call-operation.js"
import type { CuesOutput } from "../../../api/outputs.js"
import { cueLines, oneLine } from "../format.js"
import * as O from "../options.js"
import { callerOf, withOperations } from "../root.js"
import { withShortIds } from "../short-ids.js"

export const cues = Command.make(
  "cues",
  {
    id: Args.text({ name: "id" }),
    drop: Options.text("drop").pipe(Options.withDescription("drop this learned cue: it stops finding the memory and is not learned again"), Options.optional),
    origin: O.origin,
    agent: O.agent,
    json: O.json
  },
  (a) =>
    Option.match(a.drop, {
      onNone: () => withOperations(callOperation("cues", { id: a.id }, callerOf()), { json: a.json, human: cuesText, toJson: cuesJson }),
      onSome: (cue) =>
        withOperations(Effect.zipRight(O.checkWho(a), withShortIds(a.json, callOperation("dropCue", { id: a.id, cue }, callerOf(a)), (r) => [r.id])), {
          json: a.json,
          human: ({ value: r, short }) => `dropped the learned cue ${JSON.stringify(r.dropped)} from ${short(r.id)}`,
          toJson: ({ value }) => value
        })
    })
).pipe(Command.withDescription("List a memory's cues, written and learned, with where each came from; --drop TEXT drops a learned one"))

/** The memory named by its ids and text, not in full: `mem show` prints the rest. */
const cuesJson = ({ memory, cues }: CuesOutput) => ({ id: memory.id, shortId: memory.shortId, content: memory.content, cues })

const cuesText = ({ memory, cues }: CuesOutput): string =>
  [
    `${memory.shortId}  ${oneLine(memory.content, 100)}`,
    ...(cues.length === 0
      ? [`no cues: write some with mem edit ${memory.shortId} --cue TEXT; others are learned from what a conversation searched before it said the memory worked`]
      : cueLines(cues))
  ].join("\n")
