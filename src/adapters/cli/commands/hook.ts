/**
 * `mem hook EVENT` as a CLI command: what the agents run at each lifecycle point. bin/mem.js
 * answers the plain forms through the hook bundle (src/adapters/hook/main.ts) without loading
 * the CLI; this command answers the rest (`--help`, options in other places) by the same code.
 */
import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { HOOK_EVENTS } from "../../../hooks/hook-input.js"
import { DEFAULT_AGENT } from "../../hook/hook-command.js"
import { runHookCommand } from "../../hook/run-hook.js"
import { mem } from "../root.js"

export const hook = Command.make(
  "hook",
  {
    event: Args.choice(HOOK_EVENTS.map((e) => [e, e] as const), { name: "event" }).pipe(Args.withDescription("the point of the session the agent is at")),
    agent: Options.text("agent").pipe(Options.withDescription("the agent running the hook"), Options.withDefault(DEFAULT_AGENT))
  },
  (a) =>
    Effect.flatMap(mem, ({ db }) =>
      Effect.promise(() => runHookCommand({ event: a.event, agent: a.agent, ...Option.match(db, { onNone: () => ({}), onSome: (path) => ({ db: path }) }) }))
    )
).pipe(Command.withDescription("Run an agent hook (reads the agent's JSON on stdin; never fails the session)"))
