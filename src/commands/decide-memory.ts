/**
 * Deciders for the commands on one memory: pure functions from a command and the current
 * state to the events that record it, or a DomainError. Ids and time come in the command.
 */
import { Either } from "effect"
import {
  InvalidInput,
  MemoryIsForgotten,
  MemoryIsSuperseded,
  MemoryNotFound,
  SupersedeSelf,
  type DomainError
} from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import { restatementKey } from "../domain/text.js"
import { MAX_TAG_LENGTH, tagsProblem, type Category, type Scope, type Source, type Status } from "../domain/vocabulary.js"
import type { Capture } from "../events/capture.js"
import type { EventOf } from "../events/events.js"
import { scannedCapture } from "./scanned-capture.js"
import type { MemoryState } from "../projections/memory-state.js"
import { scrubText } from "../privacy/scrub.js"
import { writtenCues } from "./written-cues.js"
import { identitySecret } from "./actor.js"
import { scanForStorage, type PrivacyNotice, type ScanRecord, type ScannedContent } from "./scanned-content.js"
import type { Decision, DecisionState } from "./state.js"
import type { Mutable } from "../domain/mutable.js"

export type Relation = { readonly kind: "confirms" | "supersedes" | "distinct_from"; readonly id: MemoryId }

export interface AddMemory {
  readonly memoryId: MemoryId
  readonly content: string
  readonly category: Category
  readonly scope: Scope
  readonly project: string | null
  readonly tags: ReadonlyArray<string>
  readonly source: Source
  readonly status: Status
  readonly confidence: number
  readonly createdAt?: string
  readonly relation?: Relation
  readonly cues?: ReadonlyArray<string>
  /** Set by capture (docs/capture.md): the span it came from; its evidence is scanned like the content. */
  readonly capture?: Capture
  /** Private to the event's author (events.ts MemoryAdded); the service checks there is one. */
  readonly visibility?: "private"
}

/** `privacy` is present when the scan redacted, dropped or flagged something in the text given. */
export type AddResult = (
  | { readonly id: MemoryId; readonly stored: true }
  | { readonly id: MemoryId; readonly stored: false; readonly confirmed: true; readonly confirmations: number }
) & { readonly privacy?: PrivacyNotice }

/**
 * The text is scanned first (scanned-content.ts), and everything after, the restatement check
 * included, sees only the scanned text: a secret said twice is one redacted memory, confirmed.
 */
export const decideAdd = (cmd: AddMemory, state: DecisionState): Either.Either<Decision<AddResult>, DomainError> =>
  Either.flatMap(scanForStorage(cmd.content), (scanned) => decideAddScanned(cmd, scanned, state))

/** decideAdd once `cmd.content` has been scanned (a bulk import scans every line before writing). */
export const decideAddScanned = (
  cmd: AddMemory,
  scanned: ScannedContent,
  state: DecisionState
): Either.Either<Decision<AddResult>, DomainError> =>
  Either.map(decideScannedAdd(cmd, scanned.content, scanned.record, state), (decision) =>
    scanned.notice ? { ...decision, result: { ...decision.result, privacy: scanned.notice } } : decision
  )

/** `content` is `cmd.content` scanned: the text decided on and stored, in place of the one given. */
const decideScannedAdd = (
  cmd: AddMemory,
  content: string,
  scan: ScanRecord,
  state: DecisionState
): Either.Either<Decision<AddResult>, DomainError> => {
  const badTags = tagsProblem(cmd.tags)
  if (badTags !== undefined) return Either.left(new InvalidInput({ message: `tags: ${badTags}` }))
  const cues = cmd.cues === undefined ? undefined : writtenCues(cmd.cues)
  if (cues && Either.isLeft(cues)) return Either.left(cues.left)
  // A project is a name stored as given, like the origin and agent (commands/actor.ts).
  const secret = cmd.project === null ? undefined : identitySecret("project", cmd.project)
  if (secret !== undefined) return Either.left(secret)
  if (cmd.scope === "project" && cmd.project === null) {
    return Either.left(new InvalidInput({ message: "a project memory needs a project; pass --project or --global" }))
  }
  const project = cmd.scope === "global" ? null : cmd.project
  const related = cmd.relation && liveMemory(state, cmd.relation.id, `be related to a new memory`)
  if (related && Either.isLeft(related)) return Either.left(related.left)
  const target = related?.right

  const capture = cmd.capture === undefined ? undefined : scannedCapture(cmd.capture)
  if (cmd.relation?.kind === "confirms" && target) return Either.right(confirmation(target, capture))
  // A supersedes or distinct_from the caller chose still holds when the text restates another
  // memory: it then applies to the memory restated, rather than being dropped.
  const linksFor = (id: MemoryId, distinctFrom: ReadonlyArray<MemoryId>) =>
    !target || target.id === id
      ? []
      : cmd.relation?.kind === "supersedes"
        ? [{ _tag: "MemorySuperseded" as const, memoryId: target.id, by: id }]
        : cmd.relation?.kind === "distinct_from" && !distinctFrom.includes(target.id)
          ? [{ _tag: "MemoriesMarkedDistinct" as const, memoryId: id, from: target.id }]
          : []
  const restated = state.restatementOf(restatementKey(content), cmd.scope, project)
  if (restated) {
    const confirmed = confirmation(restated, capture)
    return Either.right({ ...confirmed, events: [...confirmed.events, ...linksFor(restated.id, restated.distinctFrom)] })
  }

  const added: Mutable<EventOf<"MemoryAdded">> = {
    _tag: "MemoryAdded",
    memoryId: cmd.memoryId,
    content,
    category: cmd.category,
    scope: cmd.scope,
    project,
    tags: dedupe(cmd.tags),
    source: cmd.source,
    // Text that reads like orders to an agent waits for a person, whoever wrote it.
    status: scan.flags?.includes("instruction-like") ? "tentative" : cmd.status,
    confidence: cmd.confidence
  }
  // Set in place, in the event's field order, rather than spread from temporary objects (once
  // per line of an import).
  if (cmd.createdAt !== undefined) added.createdAt = cmd.createdAt
  if (cues !== undefined && cues.right.length > 0) added.cues = cues.right
  if (scan.redacted !== undefined) added.redacted = scan.redacted
  if (scan.privateDropped !== undefined) added.privateDropped = scan.privateDropped
  if (scan.flags !== undefined) added.flags = scan.flags
  if (capture !== undefined) added.capture = capture
  if (cmd.visibility !== undefined) added.visibility = cmd.visibility
  const links = linksFor(cmd.memoryId, [])
  return Either.right({ events: links.length === 0 ? [added] : [added, ...links], result: { id: cmd.memoryId, stored: true } })
}

export interface ReviseMemory {
  readonly memoryId: MemoryId
  readonly content?: string
  readonly category?: Category
  readonly tags?: ReadonlyArray<string>
  /** Replaces the written cues as a whole; [] removes them. */
  readonly cues?: ReadonlyArray<string>
  /** `shared` shares a private memory with everyone; `private` makes it the writer's alone (the service checks there is a writer's name). */
  readonly visibility?: "private" | "shared"
}

export type ReviseResult = { readonly id: MemoryId; readonly changed: boolean; readonly privacy?: PrivacyNotice }

/** New text is scanned as on add; the scan's record goes with the content it describes. */
export const decideRevise = (cmd: ReviseMemory, state: DecisionState): Either.Either<Decision<ReviseResult>, DomainError> =>
  Either.flatMap(liveMemory(state, cmd.memoryId, "be edited"), (m): Either.Either<Decision<ReviseResult>, DomainError> => {
    const badTags = cmd.tags === undefined ? undefined : tagsProblem(cmd.tags)
    if (badTags !== undefined) return Either.left(new InvalidInput({ message: `tags: ${badTags}` }))
    const scanned = cmd.content === undefined ? undefined : scanForStorage(cmd.content)
    if (scanned && Either.isLeft(scanned)) return Either.left(scanned.left)
    const cues = cmd.cues === undefined ? undefined : writtenCues(cmd.cues)
    if (cues && Either.isLeft(cues)) return Either.left(cues.left)
    const text = scanned?.right
    const changes = {
      ...(text !== undefined && text.content !== m.content ? { content: text.content, ...text.record } : {}),
      ...(cmd.category !== undefined && cmd.category !== m.category ? { category: cmd.category } : {}),
      ...(cmd.tags !== undefined && !sameTags(cmd.tags, m.tags) ? { tags: dedupe(cmd.tags) } : {}),
      ...(cues !== undefined && !sameTags(cues.right, m.cues) ? { cues: cues.right } : {}),
      ...(cmd.visibility !== undefined && cmd.visibility !== (m.privateTo === null ? "shared" : "private") ? { visibility: cmd.visibility } : {})
    }
    const changed = Object.keys(changes).length > 0
    return Either.right({
      events: changed ? [{ _tag: "MemoryRevised" as const, memoryId: m.id, ...changes }] : [],
      result: { id: m.id, changed, ...(text?.notice ? { privacy: text.notice } : {}) }
    })
  })

export const decideConfirm = (
  memoryId: MemoryId,
  state: DecisionState
): Either.Either<Decision<AddResult>, DomainError> => Either.map(liveMemory(state, memoryId, "be confirmed"), (m) => confirmation(m))

export const decideSupersede = (
  old: MemoryId,
  by: MemoryId,
  state: DecisionState
): Either.Either<Decision<{ id: MemoryId; supersededBy: MemoryId }>, DomainError> => {
  if (old === by) return Either.left(new SupersedeSelf({ id: old }))
  return Either.flatMap(liveMemory(state, old, "be superseded"), (oldMemory) =>
    Either.map(liveMemory(state, by, "supersede another memory"), (newMemory) => ({
      events: [{ _tag: "MemorySuperseded" as const, memoryId: oldMemory.id, by: newMemory.id }],
      result: { id: oldMemory.id, supersededBy: newMemory.id }
    }))
  )
}

export const decideMarkDistinct = (
  a: MemoryId,
  b: MemoryId,
  state: DecisionState
): Either.Either<Decision<{ id: MemoryId; distinctFrom: MemoryId }>, DomainError> => {
  if (a === b) return Either.left(new InvalidInput({ message: "a memory cannot be distinct from itself" }))
  return Either.flatMap(existing(state, a), (ma) =>
    Either.map(existing(state, b), (mb) => ({
      events: ma.distinctFrom.includes(mb.id) ? [] : [{ _tag: "MemoriesMarkedDistinct" as const, memoryId: ma.id, from: mb.id }],
      result: { id: ma.id, distinctFrom: mb.id }
    }))
  )
}

/** Forgetting is idempotent: forgetting a forgotten memory records nothing and is no error. */
export const decideForget = (
  memoryId: MemoryId,
  reason: string,
  state: DecisionState
): Either.Either<Decision<{ id: MemoryId; forgotten: true; changed: boolean }>, DomainError> =>
  Either.map(existing(state, memoryId), (m) => ({
    events: m.forgotten ? [] : [{ _tag: "MemoryForgotten" as const, memoryId: m.id, reason: scrubText(reason) }],
    result: { id: m.id, forgotten: true, changed: !m.forgotten }
  }))

export const decideRestore = (
  memoryId: MemoryId,
  reason: string,
  state: DecisionState
): Either.Either<Decision<{ id: MemoryId; forgotten: false; changed: boolean }>, DomainError> =>
  Either.map(existing(state, memoryId), (m) => ({
    events: m.forgotten ? [{ _tag: "MemoryRestored" as const, memoryId: m.id, reason: scrubText(reason) }] : [],
    result: { id: m.id, forgotten: false, changed: m.forgotten }
  }))

export const existing = (state: DecisionState, id: MemoryId): Either.Either<MemoryState, DomainError> => {
  const m = state.memory(id)
  return m ? Either.right(m) : Either.left(new MemoryNotFound({ id }))
}

/** A memory that may take part in a new decision: it exists, is not forgotten, not superseded. */
export const liveMemory = (state: DecisionState, id: MemoryId, action: string): Either.Either<MemoryState, DomainError> =>
  Either.flatMap(existing(state, id), (m): Either.Either<MemoryState, DomainError> => {
    if (m.forgotten) return Either.left(new MemoryIsForgotten({ id, action }))
    if (m.supersededBy !== null) return Either.left(new MemoryIsSuperseded({ id, by: m.supersededBy }))
    return Either.right(m)
  })

const confirmation = (m: MemoryState, capture?: Capture): Decision<AddResult> => ({
  events: [capture === undefined ? { _tag: "MemoryConfirmed", memoryId: m.id } : { _tag: "MemoryConfirmed", memoryId: m.id, capture }],
  result: { id: m.id, stored: false, confirmed: true, confirmations: m.confirmations + 1 }
})

/**
 * Tags pass the privacy scan too: a key pasted as a tag is as stored as one in the content.
 * Tags given are already within the rule (tagsProblem); the cut and the filter only catch what
 * the scan did to them (a redaction marker longer than the secret, a tag all `<private>`).
 */
const dedupe = (tags: ReadonlyArray<string>): string[] => {
  // One array, first occurrence kept, as `[...new Set(...)]` of the scrubbed tags (at most MAX_TAGS).
  const kept: string[] = []
  for (const given of tags) {
    const tag = cutToTagLength(scrubText(given.trim()))
    if (tag.length > 0 && !kept.includes(tag)) kept.push(tag)
  }
  // A copy the exact size: the first push gave `kept` room for 17, and a memory keeps its tags
  // as long as it is held (an import holds two batches of memories).
  return kept.slice()
}
const cutToTagLength = (tag: string): string => (tag.length <= MAX_TAG_LENGTH ? tag : Array.from(tag).slice(0, MAX_TAG_LENGTH).join(""))
const sameTags = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => dedupe(a).join("\u0000") === dedupe(b).join("\u0000")
