/**
 * The `Commands` service: every write. Each command resolves typed ids, asks its pure decider
 * under the write lock, and appends what it decided, with ids and time from the services.
 * CLI, MCP, REST and SDK all call this, so none can decide differently, and none can store
 * text that skipped the privacy scan (add and revise scan inside their deciders).
 */
import { Clock, Context, Effect, Either, Layer } from "effect"
import type { Actor } from "../commands/actor.js"
import {
  decideConfirm,
  decideForget,
  decideMarkDistinct,
  decideRestore,
  decideRevise,
  decideSupersede,
  type AddResult,
  type ReviseResult
} from "../commands/decide-memory.js"
import { decideAddInput, type AddInput } from "../commands/add-input.js"
import { executeIn, type DecideContext } from "../commands/execute.js"
import { decideForgetConversation, decideRestoreConversation, type ConversationResult } from "../commands/decide-conversation.js"
import { decideOutcome } from "../commands/decide-outcome.js"
import { decideDropCue } from "../commands/decide-cue.js"
import type { Decision } from "../commands/state.js"
import { InvalidInput, type DomainError } from "../domain/errors.js"
import type { MemoryId } from "../domain/ids.js"
import type { Category, Outcome } from "../domain/vocabulary.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import { EventLog } from "../store/event-log.js"
import { Settings } from "../config.js"
import { makeIdFactory } from "../domain/ids.js"
import { scanContent } from "../privacy/scan.js"
import { findSimilar, type SimilarFound } from "../retrieval/similar.js"
import type { QueryVector } from "../retrieval/candidate.js"
import { captureAllows, captureModeFor, readCaptureSettings } from "../capture/capture-settings.js"
import type { Capture } from "../events/capture.js"
import { StoreMaintenance } from "../store/store-maintenance.js"
import { decidedBy, seenBy } from "./seen-by.js"

/**
 * A private memory is private to its writer's name, which only a token gives (docs/serve.md,
 * "People and tokens"): without one there is nobody for it to be private to.
 */
const privateNeedsAuthor = (visibility: "private" | "shared" | undefined, actor: Actor): Effect.Effect<void, InvalidInput> =>
  visibility === "private" && actor.author === undefined
    ? Effect.fail(new InvalidInput({ message: "a private memory is private to a person: write it through a server with your token (MEMLEDGER_URL and MEMLEDGER_TOKEN)" }))
    : Effect.void

export interface ReviseInput {
  readonly content?: string
  readonly category?: Category
  readonly tags?: ReadonlyArray<string>
  readonly cues?: ReadonlyArray<string>
  /** Shares a private memory, or makes a shared one private to the writer (a token's name). */
  readonly visibility?: "private" | "shared"
}

type Result<R> = Effect.Effect<R, DomainError>

/**
 * A captured remember that wrote nothing: its key (conversation and span) is already in the log,
 * so not even a confirmation; or capture is off (or limited to rules) where it would be kept.
 */
export interface NotCaptured {
  readonly stored: false
  readonly notCaptured: "already captured" | "capture is off"
}

/** A remember that stored nothing because near-duplicates exist. */
export interface SimilarExist {
  readonly stored: false
  readonly similar: ReadonlyArray<SimilarFound>
}

export interface CommandsApi {
  readonly add: (input: AddInput, actor: Actor) => Result<AddResult>
  /**
   * `add` for agents: unless the caller already related the text to a memory (confirms,
   * supersedes, distinct_from), near-duplicates in scope stop the write and are returned.
   * Checked inside the write lock, so two similar writes at once cannot both slip through.
   */
  readonly remember: (input: AddInput, actor: Actor, vector?: QueryVector) => Result<AddResult | SimilarExist | NotCaptured>
  readonly revise: (id: string, input: ReviseInput, actor: Actor) => Result<ReviseResult>
  readonly confirm: (id: string, actor: Actor) => Result<AddResult>
  readonly supersede: (old: string, by: string, actor: Actor) => Result<{ id: MemoryId; supersededBy: MemoryId }>
  readonly markDistinct: (a: string, b: string, actor: Actor) => Result<{ id: MemoryId; distinctFrom: MemoryId }>
  readonly outcome: (
    ids: ReadonlyArray<string>,
    outcome: Outcome,
    details: { task?: string; note?: string },
    actor: Actor
  ) => Result<{ memoryIds: MemoryId[]; outcome: Outcome }>
  readonly forget: (id: string, reason: string, actor: Actor) => Result<{ id: MemoryId; forgotten: true; changed: boolean }>
  readonly restore: (id: string, reason: string, actor: Actor) => Result<{ id: MemoryId; forgotten: false; changed: boolean }>
  /** `admin`: whether the actor's token may touch other people's conversations (without a token, anyone may). */
  readonly forgetConversation: (origin: string, undo: boolean, actor: Actor, admin?: boolean) => Result<ConversationResult>
  /** Drops one of a memory's learned cues (CueDropped): it stops finding the memory and is not learned again. */
  readonly dropCue: (id: string, cue: string, actor: Actor) => Result<{ id: MemoryId; dropped: string }>
}

export class Commands extends Context.Tag("memledger/Commands")<Commands, CommandsApi>() {}

export const makeCommands: Effect.Effect<CommandsApi, never, EventLog | StoreMaintenance | Settings> = Effect.gen(function* () {
  const log = yield* EventLog
  const maintenance = yield* StoreMaintenance
  const config = yield* Settings
  const newId = makeIdFactory()

  /**
   * Resolve ids, decide and append, all under one write lock, on the store as the writer sees
   * it (seen-by.ts): another person's private memory can be neither named nor restated.
   */
  const run = <R>(actor: Actor, decide: (ctx: DecideContext) => Either.Either<Decision<R>, DomainError>): Result<R> =>
    Effect.flatMap(Clock.currentTimeMillis, (now) =>
      log.write((unit) => {
        const viewer = actor.author ?? null
        return executeIn({ ...unit, reads: seenBy(unit.reads, viewer), state: decidedBy(unit.state, viewer) }, actor, now, newId, decide)
      })
    )

  const resolve = (reads: LedgerReads, typed: string) => reads.resolveId(typed)

  /**
   * Checked under the write lock: two hooks capturing the same span at once write it once. The
   * setting is read on each capture, so turning capture off takes effect at once; a setting
   * file that does not read stops capture rather than ignoring what it says.
   */
  const whyNotCaptured = (reads: LedgerReads, capture: Capture, origin: string, project: string | null): NotCaptured["notCaptured"] | undefined => {
    const settings = readCaptureSettings(maintenance.location)
    if (Either.isLeft(settings) || !captureAllows(captureModeFor(settings.right, project), capture.kind)) return "capture is off"
    return reads.captureKeyInLog(origin, capture.span) ? "already captured" : undefined
  }
  const withIds = <R>(reads: LedgerReads, typed: ReadonlyArray<string>, f: (ids: MemoryId[]) => Either.Either<R, DomainError>) =>
    Either.flatMap(Either.all(typed.map((t) => resolve(reads, t))), f)

  return {
    add: (input, actor) => Effect.zipRight(privateNeedsAuthor(input.visibility, actor), run(actor, (ctx) => decideAddInput(input, ctx))),
    // An explicit `visibility: "shared"` keeps a capture shared.
    remember: (given, actor, vector) => {
      // What capture keeps from a person's conversation is theirs until they accept it (`review`).
      const input: AddInput = given.capture !== undefined && given.visibility === undefined && actor.author !== undefined ? { ...given, visibility: "private" } : given
      return Effect.zipRight(privateNeedsAuthor(input.visibility, actor), run<AddResult | SimilarExist | NotCaptured>(actor, (ctx) => {
        const notCaptured = input.capture === undefined ? undefined : whyNotCaptured(ctx.reads, input.capture, actor.origin, input.project)
        if (notCaptured !== undefined) return Either.right({ events: [], result: { stored: false, notCaptured } })
        const related = input.confirms ?? input.supersedes ?? input.distinctFrom
        const project = input.scope === "global" ? null : input.project
        // Compared as it would be stored: after the privacy scan (a secret is not a word in common).
        const similar = related === undefined ? findSimilar(ctx.reads, scanContent(input.content).content, project, config, vector) : []
        return similar.length > 0 ? Either.right({ events: [], result: { stored: false, similar } }) : decideAddInput(input, ctx)
      }))
    },
    revise: (id, input, actor) =>
      Effect.zipRight(
        privateNeedsAuthor(input.visibility, actor),
        run(actor, ({ reads, state }) => Either.flatMap(resolve(reads, id), (memoryId) => decideRevise({ memoryId, ...input }, state)))
      ),
    confirm: (id, actor) => run(actor, ({ reads, state }) => Either.flatMap(resolve(reads, id), (m) => decideConfirm(m, state))),
    supersede: (old, by, actor) =>
      run(actor, ({ reads, state }) => withIds(reads, [old, by], ([o, b]) => decideSupersede(o!, b!, state))),
    markDistinct: (a, b, actor) =>
      run(actor, ({ reads, state }) => withIds(reads, [a, b], ([x, y]) => decideMarkDistinct(x!, y!, state))),
    outcome: (ids, outcome, details, actor) =>
      run(actor, ({ reads, state }) => withIds(reads, ids, (memoryIds) => decideOutcome({ memoryIds, outcome, ...details }, state))),
    forget: (id, reason, actor) =>
      run(actor, ({ reads, state }) => Either.flatMap(resolve(reads, id), (m) => decideForget(m, reason, state))),
    restore: (id, reason, actor) =>
      run(actor, ({ reads, state }) => Either.flatMap(resolve(reads, id), (m) => decideRestore(m, reason, state))),
    forgetConversation: (origin, undo, actor, admin = false) => {
      const writer = actor.author === undefined ? undefined : { name: actor.author, admin }
      return run(actor, ({ state }) => (undo ? decideRestoreConversation(origin, state, writer) : decideForgetConversation(origin, state, writer)))
    },
    dropCue: (id, cue, actor) =>
      run(actor, ({ reads }) =>
        Either.flatMap(resolve(reads, id), (memoryId) =>
          decideDropCue(memoryId, cue, (reads.learnedCues([memoryId]).get(memoryId) ?? []).map((c) => c.text))
        )
      )
  }
})

export const CommandsLive = Layer.effect(Commands, makeCommands)
