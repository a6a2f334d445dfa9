/**
 * The model's answer, parsed at the edge (extraction-prompt.ts says what was asked): a JSON
 * array of candidate memories, each checked by an Effect Schema. A model may wrap the array in a
 * code fence or in an object (`{"memories": [...]}`); anything else is unusable. A candidate
 * that does not match the schema is dropped alone; an answer none of whose items match is
 * unusable as a whole.
 *
 * Then the guard against invention: a candidate whose evidence is not found in the text that
 * was sent (compared without case, spacing or quote style; a quote elided with "..." by its
 * pieces, in order) is dropped.
 */
import { Either, ParseResult, Schema } from "effect"
import { Category, MAX_CUE_CHARACTERS } from "../../domain/vocabulary.js"
import { MAX_WRITTEN_CUES } from "../../events/events.js"
import { MAX_CUE_WORDS } from "../../projections/cue-state.js"
import { answerExcerpt } from "../../openai-compatible/server.js"

const Trimmed = (max: number) => Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(max))

/** A cue as a written one must be (commands/written-cues.ts): a memory that passes is never refused for its cues. */
const Cue = Trimmed(MAX_CUE_CHARACTERS).pipe(
  Schema.filter((cue) => cue.split(/\s+/).length <= MAX_CUE_WORDS || `a cue is at most ${MAX_CUE_WORDS} words`)
)

export const Candidate = Schema.Struct({
  content: Trimmed(1_000),
  category: Schema.compose(Schema.Lowercase, Category),
  cues: Schema.optionalWith(Schema.Array(Cue).pipe(Schema.maxItems(MAX_WRITTEN_CUES)), { default: () => [] }),
  evidence: Trimmed(2_000)
})
export type Candidate = typeof Candidate.Type

export interface ParsedAnswer {
  readonly candidates: ReadonlyArray<Candidate>
  /** Items that did not match the schema. */
  readonly invalid: number
}

/** The candidates of an answer, or why it holds none that can be read. */
export const parseModelAnswer = (content: string): Either.Either<ParsedAnswer, string> => {
  let json: unknown
  try {
    json = JSON.parse(withoutFence(content))
  } catch {
    return Either.left(`not with JSON${answerExcerpt(content)}`)
  }
  const items = itemsOf(json)
  if (items === undefined) return Either.left(`not with a JSON array of memories${answerExcerpt(content)}`)
  const decoded = items.map((item) => decodeCandidate(item))
  const candidates = decoded.flatMap((d) => (Either.isRight(d) ? [d.right] : []))
  const firstProblem = decoded.find(Either.isLeft)
  if (candidates.length === 0 && firstProblem !== undefined) {
    const asked = "the fields asked for (content, category, cues, evidence)"
    return Either.left(`none of its ${items.length} memories has ${asked}: ${firstProblem.left}`)
  }
  return Either.right({ candidates, invalid: items.length - candidates.length })
}

/** The candidates whose evidence is in `sent`, and how many were not. */
export const groundedIn = (
  sent: string,
  candidates: ReadonlyArray<Candidate>
): { readonly kept: ReadonlyArray<Candidate>; readonly unfounded: number } => {
  const text = comparable(sent)
  const kept = candidates.filter((c) => quotedFrom(text, c.evidence))
  return { kept, unfounded: candidates.length - kept.length }
}

const decodeCandidate = (item: unknown): Either.Either<Candidate, string> =>
  Either.mapLeft(Schema.decodeUnknownEither(Candidate)(item), (error) =>
    ParseResult.TreeFormatter.formatErrorSync(error).replace(/\s+/g, " ").slice(0, 300)
  )

/** The answer inside a Markdown code fence, when the model put it in one. */
const withoutFence = (content: string): string => /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(content)?.[1] ?? content

const itemsOf = (json: unknown): ReadonlyArray<unknown> | undefined => {
  if (Array.isArray(json)) return json
  if (typeof json !== "object" || json === null) return undefined
  const lists = Object.values(json).filter(Array.isArray)
  return lists.length === 1 ? lists[0] : undefined
}

/** A quote shorter than this (in letters and digits) could be found anywhere: it shows nothing. */
const MIN_EVIDENCE = 8

const quotedFrom = (text: string, evidence: string): boolean => {
  const pieces = comparable(evidence.replace(/^["'“”‘’]+|["'“”‘’]+$/g, ""))
    .split(/\s*(?:\.\.\.|…)\s*/)
    .filter((piece) => piece.length > 0)
  if (pieces.join("").replace(/[^\p{L}\p{N}]/gu, "").length < MIN_EVIDENCE) return false
  let from = 0
  for (const piece of pieces) {
    const at = text.indexOf(piece, from)
    if (at < 0) return false
    from = at + piece.length
  }
  return true
}

const comparable = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[“”]/g, '"')
    .replace(/[‘’]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
