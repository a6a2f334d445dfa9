/**
 * Cues written with a memory: up to five short questions or phrasings it answers, each scanned
 * as the content is (secrets redacted, `<private>` spans dropped) and at most 32 words.
 */
import { Either } from "effect"
import { InvalidInput } from "../domain/errors.js"
import { MAX_WRITTEN_CUES } from "../events/events.js"
import { MAX_CUE_WORDS, cueNorm } from "../projections/cue-state.js"
import { scrubText } from "../privacy/scrub.js"
import { MAX_CUE_CHARACTERS } from "../domain/vocabulary.js"

/** The cues as stored (scanned, blank and repeated ones left out), or what is wrong with them. */
export const writtenCues = (raw: ReadonlyArray<string>): Either.Either<string[], InvalidInput> => {
  if (raw.length > MAX_WRITTEN_CUES) {
    return Either.left(new InvalidInput({ message: `${raw.length} cues; a memory takes at most ${MAX_WRITTEN_CUES}` }))
  }
  const cues: string[] = []
  const seen = new Set<string>()
  for (const cue of raw) {
    const words = cue.trim().split(/\s+/).filter(Boolean).length
    if (words > MAX_CUE_WORDS) {
      return Either.left(new InvalidInput({ message: `a cue is at most ${MAX_CUE_WORDS} words; "${cue.slice(0, 40)}…" has ${words}` }))
    }
    if (cue.length > MAX_CUE_CHARACTERS) {
      return Either.left(new InvalidInput({ message: `a cue is at most ${MAX_CUE_CHARACTERS} characters` }))
    }
    const scrubbed = scrubText(cue)
    const norm = cueNorm(scrubbed)
    if (norm.length === 0 || seen.has(norm)) continue
    seen.add(norm)
    cues.push(scrubbed)
  }
  return Either.right(cues)
}
