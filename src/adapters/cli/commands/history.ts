/** The log and its conversations: `mem log`, `conversations`, `forget-conversation`. */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { storedEventJson } from "../../../events/export-line.js"
import { Commands } from "../../../services/commands.js"
import { Queries } from "../../../services/queries.js"
import { conversationLine, eventLine } from "../format.js"
import * as O from "../options.js"
import { withStore } from "../root.js"

/** JSON shape of an event: the envelope and the payload (null once purged). */
export const eventJson = storedEventJson

export const log = Command.make(
  "log",
  {
    memory: Options.text("memory").pipe(Options.withDescription("only events about this memory"), Options.optional),
    origin: Options.text("origin").pipe(Options.withDescription("only events from this conversation"), Options.optional),
    since: Options.integer("since").pipe(Options.withDescription("only events after this sequence number"), Options.optional),
    limit: O.limit,
    json: O.json
  },
  (a) =>
    withStore(
      Effect.flatMap(Queries, (q) =>
        q.log({
          ...Option.match(a.memory, { onNone: () => ({}), onSome: (memory) => ({ memory }) }),
          ...Option.match(a.origin, { onNone: () => ({}), onSome: (origin) => ({ origin }) }),
          ...Option.match(a.since, { onNone: () => ({}), onSome: (after) => ({ after }) }),
          ...Option.match(a.limit, { onNone: () => ({}), onSome: (limit) => ({ limit }) })
        })
      ),
      {
        json: a.json,
        human: (events) => (events.length === 0 ? "no events" : events.map(eventLine).join("\n")),
        toJson: (events) => events.map(eventJson)
      }
    )
).pipe(Command.withDescription("The events, oldest first"))

export const conversations = Command.make("conversations", { json: O.json }, ({ json }) =>
  withStore(
    Effect.flatMap(Queries, (q) => q.conversations),
    { json, human: (cs) => (cs.length === 0 ? "no conversations" : cs.map(conversationLine).join("\n")) }
  )
).pipe(Command.withDescription("Every origin that wrote events, and whether it is forgotten"))

export const forgetConversation = Command.make(
  "forget-conversation",
  {
    conversation: Args.text({ name: "origin" }),
    undo: Options.boolean("undo").pipe(Options.withDescription("bring the conversation's contributions back")),
    origin: O.origin,
    agent: O.agent,
    json: O.json
  },
  (a) =>
    withStore(
      Effect.flatMap(Commands, (c) => c.forgetConversation(a.conversation, a.undo, { origin: a.origin, agent: a.agent })),
      {
        json: a.json,
        human: (r) =>
          !r.changed
            ? `${r.origin} was already ${r.forgotten ? "forgotten" : "remembered"}`
            : r.forgotten
              ? `forgot everything ${r.origin} contributed (${r.events} events); undo: mem forget-conversation ${r.origin} --undo`
              : `restored everything ${r.origin} contributed (${r.events} events)`
      }
    )
).pipe(Command.withDescription("Forget (or with --undo restore) everything one conversation contributed"))
