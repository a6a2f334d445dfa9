/** A person drops a learned cue that finds its memory for the wrong need. */
import { Either } from "effect"
import { InvalidInput, type DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import { cueNorm } from "../projections/cue-state.js"
import type { Decision } from "./state.js"

/** `learned`: the memory's learned cues now; only one of them can be dropped. */
export const decideDropCue = (
  memoryId: MemoryId,
  cue: string,
  learned: ReadonlyArray<string>
): Either.Either<Decision<{ id: MemoryId; dropped: string }>, DomainError> => {
  const norm = cueNorm(cue)
  const found = learned.find((text) => cueNorm(text) === norm)
  if (found === undefined) {
    return Either.left(new InvalidInput({ message: `the memory has no learned cue "${cue}"; 'mem cues ID' lists them` }))
  }
  return Either.right({ events: [{ _tag: "CueDropped", memoryId, cue: found }], result: { id: memoryId, dropped: found } })
}
