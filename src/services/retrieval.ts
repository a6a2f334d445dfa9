/**
 * The `Retrieval` service: search, why and context over one store. Search and why run the same
 * ranking (`runRanking`); search also records what it showed (`MemoriesRecalled`), why
 * records nothing. `why --at` ranks over the store as it was at that moment (the reader's
 * `readAt`), so past answers come from the same code.
 */
import { Clock, Context, Effect, Either, Layer } from "effect"
import { Settings } from "../config.js"
import { EventLog } from "../store/event-log.js"
import { LedgerReader } from "../store/ledger-reader.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import { StoreMaintenance } from "../store/store-maintenance.js"
import type { Actor } from "../commands/actor.js"
import { decideRecall, type RecallAsked } from "../commands/decide-recall.js"
import { executeIn } from "../commands/execute.js"
import { InvalidInput, type DomainError } from "../domain/errors.js"
import { makeIdFactory, type MemoryId } from "../domain/ids.js"
import { characterCount } from "../domain/text.js"
import { MAX_ALSO, MAX_CONTENT_LENGTH } from "../domain/vocabulary.js"
import { buildContext, type BuiltContext } from "../retrieval/context.js"
import { selectContext } from "../retrieval/context-selection.js"
import { explainRun, runRanking, runSearch, type ExplainedLeftOut, type ExplainedResult, type RankingRequest, type SearchMode } from "../retrieval/ranking-run.js"
import type { RankedMemory } from "../retrieval/rank.js"
import { countTokens, tokenFloor } from "../retrieval/tokens.js"
import { Embedder } from "../embeddings/embedder.js"
import { makeFallbackNotice } from "../embeddings/fallback.js"
import { makeQueryVectors, type QueryVectorResult } from "../retrieval/query-vector.js"
import type { QueryVector } from "../retrieval/candidate.js"
import type { Viewer } from "../domain/viewer.js"
import { seenBy } from "./seen-by.js"

export interface SearchInput {
  readonly query: string
  readonly limit?: number
  /** The current project; null = global memories only. */
  readonly project: string | null
  readonly category?: string
  readonly task?: string
  /** Further phrasings of the same need: the words a stored memory would likely use. */
  readonly also?: ReadonlyArray<string>
}

export interface SearchHit extends RankedMemory {
  readonly shortId: string
}

export interface SearchResult {
  readonly query: string
  readonly project: string | null
  readonly mode: SearchMode
  /** Said once when the embedder fails and search falls back to keyword. */
  readonly notice?: string
  readonly results: ReadonlyArray<SearchHit>
}

export interface WhyResult {
  readonly query: string
  readonly project: string | null
  readonly mode: SearchMode
  readonly notice?: string
  readonly at: string
  readonly results: ReadonlyArray<ExplainedResult>
  readonly leftOut: ReadonlyArray<ExplainedLeftOut>
}

export interface ContextInput {
  readonly project: string | null
  readonly query?: string
  readonly budget?: number
  readonly task?: string
  readonly also?: ReadonlyArray<string>
}

export interface RetrievalApi {
  /** Ranked over the memories the actor's name sees (seen-by.ts): its own private ones and every shared one. */
  readonly search: (input: SearchInput, actor: Actor) => Effect.Effect<SearchResult, DomainError>
  /** `viewer`: whose private memories are ranked and explained besides the shared ones (none when absent). */
  readonly why: (input: SearchInput & { readonly at?: string; readonly viewer?: Viewer }) => Effect.Effect<WhyResult, DomainError>
  readonly context: (input: ContextInput, actor: Actor) => Effect.Effect<BuiltContext & { readonly project: string | null }, DomainError>
  /** The embedder's vector for a text (for the near-duplicate check on write); none in keyword mode or on failure. */
  readonly vectorFor: (text: string) => Effect.Effect<QueryVectorResult>
}

export class Retrieval extends Context.Tag("memledger/Retrieval")<Retrieval, RetrievalApi>() {}

export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 100
export const DEFAULT_CONTEXT_BUDGET = 1_500

export const makeRetrieval: Effect.Effect<RetrievalApi, never, EventLog | LedgerReader | StoreMaintenance | Embedder | Settings> = Effect.gen(function* () {
  const log = yield* EventLog
  const reader = yield* LedgerReader
  const store = yield* StoreMaintenance
  const config = yield* Settings
  const embedder = yield* Embedder
  const newId = makeIdFactory()
  const queryVector = makeQueryVectors(store, embedder, makeFallbackNotice())

  // A recall changes no projection and nothing waits on it but the answer, so concurrent
  // searches may share one commit (the log's writeSoon); each answers once its record is stored.
  const recordRecall = (asked: RecallAsked, ids: ReadonlyArray<MemoryId>, actor: Actor, nowMs: number) =>
    log.writeSoon((unit) => executeIn(unit, actor, nowMs, newId, () => decideRecall(asked, ids)))

  return {
    vectorFor: queryVector,
    search: (input, actor) =>
      Effect.all([Clock.currentTimeMillis, queryVector(input.query)]).pipe(Effect.flatMap(([nowMs, { vector, notice }]) =>
        Effect.flatMap(Effect.suspend(() => requestOf(input)), (request) =>
          Effect.flatMap(
            reader.read((store) => {
              const reads = seenBy(store, actor.author ?? null)
              const run = runSearch(reads, request, nowMs, config, vector)
              const shortIds = reads.shortIds(run.results.map((r) => r.memory.id))
              // Object.assign: on Node 20 a spread followed by a new property takes V8's slow path.
              return { mode: run.mode, results: run.results.map((r) => Object.assign({}, r, { shortId: shortIds.get(r.memory.id)! })) }
            }),
            (found) =>
              Effect.as(
                recordRecall(askedOf(input), found.results.map((r) => r.memory.id), actor, nowMs),
                { query: input.query, project: input.project, ...found, ...(notice ? { notice } : {}) }
              )
          )
        )
      )),
    why: (input) =>
      Effect.all([Clock.currentTimeMillis, queryVector(input.query)]).pipe(Effect.flatMap(([clockMs, { vector, notice }]) =>
        Effect.flatMap(
          Effect.suspend(() => Either.all([requestOf(input), atTime(input.at, clockMs)])),
          ([request, nowMs]) => {
            const explain = (store: LedgerReads, query?: QueryVector) => {
              const reads = seenBy(store, input.viewer ?? null)
              const run = runRanking(reads, request, nowMs, config, query)
              const explained = explainRun(reads, request, run, nowMs, config)
              return { query: input.query, project: input.project, mode: run.mode, at: new Date(nowMs).toISOString(), ...explained, ...(notice ? { notice } : {}) }
            }
            // The past store has no vectors of its own: it answers by keyword.
            return input.at === undefined ? reader.read((reads) => explain(reads, vector)) : reader.readAt(new Date(nowMs).toISOString(), (reads) => explain(reads))
          }
        )
      )),
    context: (input, actor) =>
      Effect.all([Clock.currentTimeMillis, input.query === undefined ? Effect.succeed({} as QueryVectorResult) : queryVector(input.query)]).pipe(Effect.flatMap(([nowMs, { vector }]) =>
        Effect.gen(function* () {
          const budget = input.budget ?? DEFAULT_CONTEXT_BUDGET
          if (!Number.isInteger(budget) || budget < 50 || budget > 100_000) {
            return yield* Effect.fail(new InvalidInput({ message: "the budget is a whole number of tokens from 50 to 100000" }))
          }
          const items = yield* reader.read((reads) => selectContext(seenBy(reads, actor.author ?? null), input, nowMs, config, vector))
          const built = buildContext(items, budget, countTokens, tokenFloor)
          const shown = items.filter((i) => built.included.includes(i.memory.id)).map((i) => i.memory.id)
          if (input.query !== undefined && shown.length > 0) yield* recordRecall(askedOf({ ...input, query: input.query }), shown, actor, nowMs)
          return { ...built, project: input.project }
        })
      ))
  }
})

export const RetrievalLive = Layer.effect(Retrieval, makeRetrieval)

const askedOf = (input: { query: string; project: string | null; task?: string; also?: ReadonlyArray<string> }): RecallAsked => ({
  query: input.query,
  project: input.project,
  ...(input.task === undefined ? {} : { task: input.task }),
  ...(input.also === undefined ? {} : { also: input.also })
})


const requestOf = (input: SearchInput): Either.Either<RankingRequest, DomainError> => {
  if (input.query.trim().length === 0) return Either.left(new InvalidInput({ message: "the query is empty; say what you are looking for" }))
  const also = (input.also ?? []).filter((p) => p.trim().length > 0)
  if (also.length > MAX_ALSO) return Either.left(new InvalidInput({ message: `${also.length} further phrasings; at most ${MAX_ALSO}` }))
  if (also.some((p) => p.length > MAX_CONTENT_LENGTH)) return Either.left(new InvalidInput({ message: `a phrasing is at most ${MAX_CONTENT_LENGTH} characters` }))
  const characters = input.query.length > MAX_CONTENT_LENGTH ? characterCount(input.query) : 0
  if (characters > MAX_CONTENT_LENGTH) return Either.left(new InvalidInput({ message: `the query is ${characters} characters; the limit is ${MAX_CONTENT_LENGTH}` }))
  const limit = input.limit ?? DEFAULT_LIMIT
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    return Either.left(new InvalidInput({ message: `the limit is a whole number from 1 to ${MAX_LIMIT}` }))
  }
  return Either.right({
    query: input.query,
    limit,
    project: input.project,
    ...(input.category === undefined ? {} : { category: input.category }),
    ...(also.length === 0 ? {} : { also })
  })
}

const atTime = (at: string | undefined, clockMs: number): Either.Either<number, DomainError> => {
  if (at === undefined) return Either.right(clockMs)
  const ms = Date.parse(at)
  return Number.isNaN(ms)
    ? Either.left(new InvalidInput({ message: `'${at}' is not a time; use ISO-8601, e.g. 2026-11-01 or 2026-11-01T12:00:00Z` }))
    : Either.right(ms)
}
