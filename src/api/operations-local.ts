/**
 * `Operations` over a local store: each operation fills the caller's defaults (origin, agent,
 * current project), calls the store's services and returns the wire form. No decision is
 * made here; the services make them all.
 */
import { resolve } from "node:path"
import { Clock, Effect, Layer, Option } from "effect"
import { actorThrough, type Actor } from "../commands/actor.js"
import type { AddResult } from "../commands/decide-memory.js"
import { Commands, type SimilarExist } from "../services/commands.js"
import { Queries, type MemoryView } from "../services/queries.js"
import { Retrieval } from "../services/retrieval.js"
import { Console, ConsoleTaskPlace } from "../services/console.js"
import { Tasks } from "../services/tasks.js"
import { Maintenance } from "../services/maintenance.js"
import { Settings } from "../config.js"
import { LedgerReader } from "../store/ledger-reader.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import { StoreMaintenance } from "../store/store-maintenance.js"
import { storedEventJson } from "../events/export-line.js"
import { memoryToWire } from "./memory-to-wire.js"
import { Operations, REJECTED_IN_REVIEW, RESOLVE_SIMILAR, type Caller, type OperationsApi } from "./operations.js"
import { withStoreErrors } from "./store-errors.js"
import type { Viewer } from "../domain/viewer.js"
import type { ConversationState } from "../projections/conversation-state.js"

/** A conversation as the wire shows it: what it contributed, not who wrote in it. */
const conversationWire = ({ authors: _authors, privateAuthors: _private, ...rest }: ConversationState) => rest
import type { RememberOutput } from "./outputs.js"

const DEFAULT_LOG_PAGE = 100
/** What `list` returns without a limit: the most its input allows. */
const DEFAULT_LIST_LIMIT = 1000
const DEFAULT_REVIEW_LIMIT = 20
const DEFAULT_TASK_PAGE = 20

export const OperationsLocal = Layer.effect(
  Operations,
  Effect.gen(function* () {
    const commands = yield* Commands
    const queries = yield* Queries
    const retrieval = yield* Retrieval
    const reader = yield* LedgerReader
    const store = yield* StoreMaintenance
    const config = yield* Settings
    const consoleReads = yield* Console
    const maintenance = yield* Maintenance
    const taskReader = yield* Tasks
    const place = yield* Effect.serviceOption(ConsoleTaskPlace)

    const actor = (caller: Caller, origin?: string): Actor => actorThrough(origin ?? caller.origin, caller.agent, caller.person)
    /** Whose private memories the caller sees: its token's name; without a token, no one's (domain/viewer.ts). */
    const viewerOf = (caller: Caller): Viewer => caller.person?.name ?? null
    /** The store's own command line (no token) may do anything; a token, what its flags allow. */
    const isAdmin = (caller: Caller): boolean => caller.person === undefined || caller.person.admin
    const projectOf = (caller: Caller, project?: string) => project ?? caller.project
    const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as { [P in K]: V }))
    const wire = (view: MemoryView, nowMs: number) => memoryToWire(view.memory, view.shortId, view.evidence, nowMs, config)
    const rememberReply = (reads: LedgerReads, result: Effect.Effect.Success<ReturnType<typeof commands.remember>>): RememberOutput => {
      if ("similar" in result) return similarReply(reads, result)
      if ("notCaptured" in result) return { stored: false, reason: result.notCaptured }
      return addReply(reads, result)
    }

    const addReply = (reads: LedgerReads, result: AddResult) => {
      const privacy = optional("privacy", result.privacy)
      const shortId = reads.shortId(result.id)
      return result.stored
        ? { stored: true as const, id: result.id, shortId, ...privacy }
        : { stored: false as const, confirmed: true as const, id: result.id, shortId, confirmations: result.confirmations, ...privacy }
    }

    const similarReply = (reads: LedgerReads, result: SimilarExist): RememberOutput => ({
      stored: false,
      reason: "similar memories exist",
      similar: result.similar.map(({ memory, similarity }) => ({
        id: memory.id,
        shortId: reads.shortId(memory.id),
        content: memory.content,
        category: memory.category,
        project: memory.project,
        similarity
      })),
      resolve: RESOLVE_SIMILAR
    })

    const api: OperationsApi = {
      remember: (input, caller) =>
        Effect.gen(function* () {
          const project = projectOf(caller, input.project)
          const scope = input.scope ?? (project === null ? "global" : "project")
          const { vector } = yield* retrieval.vectorFor(input.content)
          const result = yield* commands.remember(
            {
              content: input.content,
              scope,
              // A capture keeps the project it was made in even when global: capture may be off there.
              project: scope === "global" && input.capture === undefined ? null : project,
              ...optional("category", input.category),
              ...optional("tags", input.tags),
              ...optional("source", input.source),
              ...optional("confirms", input.confirms),
              ...optional("supersedes", input.supersedes),
              ...optional("distinctFrom", input.distinct_from),
              ...optional("cues", input.cues),
              ...optional("capture", input.capture),
              ...optional("visibility", input.visibility)
            },
            actor(caller, input.origin),
            vector
          )
          return yield* reader.read((reads) => rememberReply(reads, result))
        }),

      recall: (input, caller) =>
        Effect.gen(function* () {
          const found = yield* retrieval.search(
            {
              query: input.query,
              project: projectOf(caller, input.project),
              ...optional("limit", input.limit),
              ...optional("category", input.category),
              ...optional("task", input.task),
              ...optional("also", input.also)
            },
            actor(caller, input.origin)
          )
          const nowMs = yield* Clock.currentTimeMillis
          const results = yield* reader.read((reads) => {
            // One read for the results' evidence, not one per result.
            const evidence = reads.evidenceOf(found.results.map((hit) => hit.memory.id))
            // Object.assign: on Node 20 a spread followed by new properties takes V8's slow path.
            return found.results.map((hit) =>
              Object.assign(memoryToWire(hit.memory, hit.shortId, evidence.get(hit.memory.id), nowMs, config), {
                rank: hit.rank,
                score: hit.score,
                terms: hit.terms,
                probation: hit.probation,
                ...optional("coverage", hit.coverage)
              })
            )
          })
          return { query: found.query, project: found.project, mode: found.mode, ...optional("notice", found.notice), results }
        }),

      explain: (input, caller) =>
        Effect.map(
          retrieval.why({
            query: input.query,
            project: projectOf(caller, input.project),
            ...optional("limit", input.limit),
            ...optional("category", input.category),
            ...optional("at", input.at),
            ...optional("also", input.also),
            viewer: viewerOf(caller)
          }),
          (r) => ({
            query: r.query,
            project: r.project,
            mode: r.mode,
            at: r.at,
            ...optional("notice", r.notice),
            results: r.results.map((x) => ({
              id: x.memory.id,
              shortId: x.shortId,
              content: x.memory.content,
              rank: x.rank,
              score: x.score,
              probation: x.probation,
              terms: x.terms,
              ...optional("coverage", x.coverage),
              events: x.events
            })),
            leftOut: r.leftOut
          })
        ),

      recordOutcome: (input, caller) =>
        Effect.map(
          commands.outcome(input.memory_ids, input.outcome, { ...optional("task", input.task), ...optional("note", input.note) }, actor(caller, input.origin)),
          (r) => ({ memory_ids: r.memoryIds, outcome: r.outcome, recorded: true as const })
        ),

      forget: (input, caller) =>
        Effect.map(commands.forget(input.memory_id, input.reason ?? "forgotten", actor(caller, input.origin)), ({ id, forgotten, changed }) => ({ id, forgotten, changed })),

      restore: (input, caller) =>
        Effect.map(commands.restore(input.memory_id, input.reason ?? "restored", actor(caller, input.origin)), ({ id, forgotten, changed }) => ({ id, forgotten, changed })),

      forgetConversation: (input, caller) => commands.forgetConversation(input.origin, input.undo ?? false, actor(caller), isAdmin(caller)),

      getContext: (input, caller) =>
        Effect.map(
          retrieval.context(
            {
              project: projectOf(caller, input.project),
              ...optional("query", input.query),
              ...optional("also", input.also),
              ...optional("budget", input.budget),
              ...optional("task", input.task)
            },
            actor(caller, input.origin)
          ),
          (c) => ({ project: c.project, text: c.text, tokens: c.tokens, budget: c.budget, included: c.included, omitted: c.omitted })
        ),

      getMemory: (input, caller) => Effect.zipWith(queries.show(input.id, viewerOf(caller)), Clock.currentTimeMillis, wire),

      // `list` and `log` read one more than asked for: whether the limit left anything out is
      // then known, not guessed from a full page.
      // A page at a time by cursor (console.ts): the next page costs what the first did.
      list: (input, caller) => {
        const { limit = DEFAULT_LIST_LIMIT, ...filter } = input
        return Effect.zipWith(consoleReads.page({ ...filter, limit, viewer: viewerOf(caller) }), Clock.currentTimeMillis, ({ views, next }, nowMs) => ({
          memories: views.map((v) => wire(v, nowMs)),
          more: next !== null,
          ...optional("next", next ?? undefined)
        }))
      },

      review: (input, caller) =>
        Effect.gen(function* () {
          const who = actor(caller, input.origin)
          const accepted: string[] = []
          for (const id of input.accept ?? []) {
            const confirmed = yield* commands.confirm(id, who)
            // Accepting what capture kept private to its author shares it (docs/capture.md).
            if (who.author !== undefined) yield* commands.revise(confirmed.id, { visibility: "shared" }, who)
            accepted.push(confirmed.id)
          }
          const rejected: string[] = []
          for (const id of input.reject ?? []) rejected.push((yield* commands.forget(id, REJECTED_IN_REVIEW, who)).id)
          // Every project's, as `list` does, unless one is asked for: a review is of the whole store.
          const { memories, more } = yield* api.list({ status: "tentative", limit: input.limit ?? DEFAULT_REVIEW_LIMIT, ...optional("project", input.project) }, caller)
          return { accepted, rejected, tentative: memories, more }
        }),

      edit: (input, caller) =>
        commands.revise(
          input.id,
          {
            ...optional("content", input.content),
            ...optional("category", input.category),
            ...optional("tags", input.tags),
            ...optional("cues", input.cues),
            ...optional("visibility", input.visibility)
          },
          actor(caller, input.origin)
        ),

      confirm: (input, caller) =>
        Effect.flatMap(commands.confirm(input.id, actor(caller, input.origin)), (result) => reader.read((reads) => addReply(reads, result))),

      supersede: (input, caller) => commands.supersede(input.id, input.by, actor(caller, input.origin)),

      cues: (input, caller) =>
        Effect.zipWith(queries.cues(input.id, viewerOf(caller)), Clock.currentTimeMillis, ({ memory, cues }, nowMs) => ({ memory: wire(memory, nowMs), cues })),

      dropCue: (input, caller) => commands.dropCue(input.id, input.cue, actor(caller, input.origin)),

      conversations: (_, caller) => Effect.map(queries.conversations(viewerOf(caller)), (conversations) => ({ conversations: conversations.map(conversationWire) })),

      log: (input, caller) => {
        const limit = input.limit ?? DEFAULT_LOG_PAGE
        const filter = {
          limit: limit + 1,
          ...optional("after", input.after),
          ...optional("before", input.before),
          ...optional("newestFirst", input.newest_first),
          ...optional("memory", input.memory),
          ...optional("origin", input.origin),
          ...optional("types", input.types)
        }
        return Effect.map(queries.log(filter, viewerOf(caller)), (events) => {
          const page = events.slice(0, limit)
          return { events: page.map(storedEventJson), next: events.length > limit ? page[page.length - 1]!.seq : null }
        })
      },

      stats: (_, caller) => queries.stats(viewerOf(caller)),

      overview: (_, caller) =>
        Effect.map(consoleReads.overview(viewerOf(caller)), (overview) => ({ ...overview, conversations: overview.conversations.map(conversationWire) })),

      record: (input, caller) =>
        Effect.zipWith(consoleReads.record(input.id, viewerOf(caller)), Clock.currentTimeMillis, (r, nowMs) => ({
          memory: wire(r.memory, nowMs),
          halfLifeDays: config.halfLifeDays,
          failureWeight: config.failureWeight,
          failureGate: config.failureGate,
          outcomes: r.outcomes.map(({ event, counted }) => ({ event: storedEventJson(event), counted })),
          points: r.points
        })),

      tasks: (input, caller) =>
        Effect.gen(function* () {
          const { tasks, next } = yield* consoleReads.tasks({ limit: input.limit ?? DEFAULT_TASK_PAGE, ...optional("before", input.before), viewer: viewerOf(caller) })
          // Only the first page lists the tasks found here; the next ones page through the log.
          const found = Option.isSome(place) && input.before === undefined ? (yield* taskReader.list(place.value)).tasks : undefined
          return { tasks: tasks.map((t) => ({ ...t, outcomes: t.outcomes.map(storedEventJson) })), next, ...optional("found", found) }
        }),

      purge: (input, caller) => {
        const options = { memories: input.memories ?? false }
        return input.yes === true
          ? Effect.map(maintenance.purge({ ...options, by: caller.person }), (report) => ({ done: true, ...report }))
          : Effect.map(maintenance.purgePreview(options), (preview) => ({ done: false, ...preview }))
      }
    }

    return withStoreErrors(api, store.errorOf)
  })
)

