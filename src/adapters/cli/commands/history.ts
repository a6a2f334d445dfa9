/** The log and its conversations: `mem log`, `conversations`, `forget-conversation`. */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { callOperation } from "../../../api/call-operation.js"
import type { Caller } from "../../../api/operations.js"
import type { LogEvent } from "../../../api/outputs.js"
import { conversationLine, count, eventLine } from "../format.js"
import * as O from "../options.js"
import { callerOf, withOperations } from "../root.js"

/** The most events one `log` call asks for; the command pages until it has what was asked. */
const LOG_PAGE = 1000
/** How many events `mem log` shows unless --limit says otherwise: a screenful or two, the newest. */
const DEFAULT_LOG_LIMIT = 50

interface LogFilter {
  readonly memory: Option.Option<string>
  readonly origin: Option.Option<string>
  readonly since: Option.Option<number>
  readonly limit: Option.Option<number>
}

/**
 * The newest events the filter asks for, newest first, and whether older ones were left out:
 * page after page, each one `before` the last.
 */
const newestEvents = (filter: LogFilter, caller: Caller) =>
  Effect.gen(function* () {
    const wanted = Option.getOrElse(filter.limit, () => DEFAULT_LOG_LIMIT)
    const events: Array<typeof LogEvent.Type> = []
    let before = Option.none<number>()
    let more = false
    while (events.length < wanted) {
      const page = yield* callOperation(
        "log",
        {
          ...O.some("memory", filter.memory),
          ...O.some("origin", filter.origin),
          ...O.some("after", filter.since),
          ...O.some("before", before),
          newest_first: true,
          limit: Math.min(LOG_PAGE, wanted - events.length)
        },
        caller
      )
      events.push(...page.events)
      more = page.next !== null
      if (page.next === null) break
      before = Option.some(page.next)
    }
    return { events, more }
  })

const OLDER_NOT_SHOWN = "older events not shown (--limit N shows more)"

export const log = Command.make(
  "log",
  {
    memory: Options.text("memory").pipe(Options.withDescription("only events about this memory"), Options.optional),
    origin: Options.text("origin").pipe(Options.withDescription("only events from this conversation"), Options.optional),
    since: Options.integer("since").pipe(Options.withDescription("only events after this sequence number"), Options.optional),
    limit: O.limit(`at most this many events, 1 or more (default ${DEFAULT_LOG_LIMIT})`),
    json: O.json
  },
  (a) =>
    withOperations(
      Effect.zipRight(
        Effect.all([O.checkRange("--limit", a.limit, 1), O.checkRange("--since", a.since, 0)], { discard: true }),
        newestEvents(a, callerOf())
      ),
      {
        json: a.json,
        human: ({ events, more }) =>
          events.length === 0 ? "no events" : [...events.map(eventLine), ...(more ? [`… ${OLDER_NOT_SHOWN}`] : [])].join("\n"),
        toJson: ({ events }) => events,
        notice: ({ more }) => (a.json && more ? OLDER_NOT_SHOWN : undefined)
      }
    )
).pipe(Command.withDescription(`The events, newest first (the ${DEFAULT_LOG_LIMIT} newest unless --limit says otherwise)`))

export const conversations = Command.make("conversations", { json: O.json }, ({ json }) =>
  withOperations(
    Effect.map(callOperation("conversations", {}, callerOf()), (r) => r.conversations),
    { json, human: (cs) => (cs.length === 0 ? "no conversations" : cs.map(conversationLine).join("\n")) }
  )
).pipe(Command.withDescription("Every origin that wrote events, and whether it is forgotten"))

export const forgetConversation = Command.make(
  "forget-conversation",
  {
    conversation: Args.text({ name: "origin" }).pipe(Args.withDescription("the conversation, e.g. claude-code:session/<id> ('mem conversations' lists them)")),
    undo: Options.boolean("undo").pipe(Options.withDescription("bring the conversation's contributions back")),
    origin: O.origin,
    agent: O.agent,
    json: O.json
  },
  (a) =>
    withOperations(
      Effect.zipRight(O.checkWho(a), callOperation("forgetConversation", { origin: a.conversation, undo: a.undo }, callerOf(a))),
      {
        json: a.json,
        human: (r) =>
          !r.changed
            ? `${r.origin} was already ${r.forgotten ? "forgotten" : "remembered"}`
            : r.forgotten
              ? `forgot everything ${r.origin} contributed (${count(r.events, "event")}); undo: mem forget-conversation ${r.origin} --undo`
              : `restored everything ${r.origin} contributed (${count(r.events, "event")})`
      }
    )
).pipe(Command.withDescription("Forget (or with --undo restore) everything one conversation contributed"))
