/**
 * Keeps what a model drew from a transcript part (model-answer.ts) as extracted, tentative
 * memories of the session, as rules and lessons are kept: each through `remember`, so the
 * privacy scan, restatement (which confirms) and near-duplicate checks apply as for `mem add`,
 * and each with its capture: the part's key, the transcript lines, and the model's quote as
 * evidence, so `mem show` and `mem why` trace it to the part it came from. Never fails its
 * caller: a memory the write path refuses is not kept.
 */
import { Effect } from "effect"
import { Operations, type Caller } from "../../api/operations.js"
import { restatementKey } from "../../domain/text.js"
import { captureOf, wrote } from "../capture-key.js"
import type { Candidate } from "./model-answer.js"
import type { TranscriptPart } from "./transcript-part.js"

/** How many memories were added or confirmed. */
export const captureExtracted = (
  candidates: ReadonlyArray<Candidate>,
  part: TranscriptPart,
  file: string,
  caller: Caller
): Effect.Effect<number, never, Operations> =>
  Effect.gen(function* () {
    const ops = yield* Operations
    const scope = caller.project === null ? "global" : "project"
    const from = `${file}:${part.firstLine}-${part.lastLine}`
    let written = 0
    for (const candidate of candidates) {
      // Each memory of the part has a span of its own: one part gives several memories, and the
      // same memory drawn from it again is already captured.
      const { content, category, cues, evidence } = candidate
      const capture = { ...captureOf("transcript-part", `${part.key}\n${restatementKey(content)}`, evidence, from), part: part.key }
      const input = { content, category, scope, source: "extracted", ...(cues.length > 0 ? { cues } : {}), capture } as const
      const result = yield* Effect.either(ops.remember(input, caller))
      if (wrote(result)) written++
    }
    return written
  })
