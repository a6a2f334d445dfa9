/**
 * Turns what a writer gives (`AddInput`: ids as typed, optional fields) into the AddMemory
 * command and its decision, filling the defaults every surface shares. The decider scans the
 * text for privacy before anything else (decideAdd), so every surface and `mem import` of memory
 * lines store only scanned text.
 */
import { Either } from "effect"
import { InvalidInput, type DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import type { Category, Scope, Source } from "../domain/vocabulary.js"
import type { Capture } from "../events/capture.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import { decideAdd, decideAddScanned, type AddMemory, type AddResult, type Relation } from "./decide-memory.js"
import type { ScannedContent } from "./scanned-content.js"
import type { DecideContext } from "./execute.js"
import type { Decision } from "./state.js"
import type { Mutable } from "../domain/mutable.js"

export interface AddInput {
  readonly content: string
  readonly category?: Category
  readonly scope: Scope
  readonly project: string | null
  readonly tags?: ReadonlyArray<string>
  readonly source?: Source
  readonly confidence?: number
  readonly createdAt?: string
  readonly confirms?: string
  readonly supersedes?: string
  readonly distinctFrom?: string
  /** Questions or phrasings the memory answers (written-cues.ts). */
  readonly cues?: ReadonlyArray<string>
  /** Set by capture: the span it came from (events/capture.ts). */
  readonly capture?: Capture
  /** `private`: the writer's name's (its token's) alone, see events.ts MemoryAdded; `shared` (the default): everyone's. */
  readonly visibility?: "private" | "shared"
}

/** Confidence given when the writer states none: what a person said outranks a guess. */
export const DEFAULT_CONFIDENCE: Record<Source, number> = { explicit: 0.9, imported: 0.8, extracted: 0.6, observed: 0.5 }

/** `scanned`: the privacy scan of `input.content`, when the caller has already made it. */
export const decideAddInput = (
  input: AddInput,
  { reads, state, newId }: DecideContext,
  scanned?: ScannedContent
): Either.Either<Decision<AddResult>, DomainError> => {
  const relation = relationOf(reads, input)
  if (relation && Either.isLeft(relation)) return Either.left(relation.left)
  const source = input.source ?? "explicit"
  const cmd: Mutable<AddMemory> = {
    memoryId: newId() as MemoryId,
    content: input.content,
    category: input.category ?? "general",
    scope: input.scope,
    project: input.project,
    tags: input.tags ?? [],
    source,
    // What an agent merely noticed, or memledger captured on its own (a model's extraction
    // included), waits for a confirmation before it counts as a rule.
    status: source === "observed" || input.capture !== undefined ? "tentative" : "confirmed",
    confidence: input.confidence ?? DEFAULT_CONFIDENCE[source]
  }
  // Set in place rather than spread from temporary objects: an import decides once per line.
  if (input.createdAt !== undefined) cmd.createdAt = input.createdAt
  if (input.cues !== undefined) cmd.cues = input.cues
  if (input.capture !== undefined) cmd.capture = input.capture
  if (input.visibility === "private") cmd.visibility = "private"
  if (relation) cmd.relation = relation.right
  return scanned ? decideAddScanned(cmd, scanned, state) : decideAdd(cmd, state)
}

const relationOf = (reads: LedgerReads, input: AddInput): Either.Either<Relation, DomainError> | undefined => {
  if (input.confirms === undefined && input.supersedes === undefined && input.distinctFrom === undefined) return undefined
  const given = (
    [
      ["confirms", input.confirms],
      ["supersedes", input.supersedes],
      ["distinct_from", input.distinctFrom]
    ] as const
  ).filter(([, id]) => id !== undefined)
  const [first, second] = given
  if (first === undefined) return undefined
  if (second !== undefined) {
    return Either.left(new InvalidInput({ message: "give at most one of confirms, supersedes and distinct_from" }))
  }
  return Either.map(reads.resolveId(first[1]!), (id) => ({ kind: first[0], id }))
}
