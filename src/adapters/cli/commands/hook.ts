/**
 * `mem hook EVENT`: what Claude Code (and Codex) run at each lifecycle point. Reads the
 * agent's JSON from stdin, runs the hook over `Operations`, and prints the context to inject
 * as one JSON value, or nothing. A hook must never fail or stall a session: any error or a
 * run past the time budget prints nothing, exits 0, and is logged to hooks.log beside the store.
 */
import { appendFileSync, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { Args, Command, Options } from "@effect/cli"
import { Cause, Duration, Effect, Exit, Option, Schema } from "effect"
import { recordToolUse, runHook } from "../../../hooks/handlers.js"
import { HOOK_EVENTS, HookInput } from "../../../hooks/hook-input.js"
import { detectProject } from "../../../project/identity.js"
import { currentTask } from "../../../tasks/find-tasks.js"
import { defaultDbPath } from "../../../services/store.js"
import { mem, operationsFor } from "../root.js"

/** Agents give hooks a few seconds; finishing well inside 2 s keeps prompts snappy. */
const BUDGET = Duration.millis(1_800)
const MAX_STDIN = 8 * 1024 * 1024

export const hook = Command.make(
  "hook",
  {
    event: Args.choice(HOOK_EVENTS.map((e) => [e, e] as const), { name: "event" }).pipe(Args.withDescription("the point of the session the agent is at")),
    agent: Options.text("agent").pipe(Options.withDescription("the agent running the hook"), Options.withDefault("claude-code"))
  },
  (a) =>
    Effect.flatMap(mem, ({ db }) =>
      Effect.promise(async () => {
        const dbPath = Option.getOrElse(db, () => defaultDbPath())
        const log = (message: string) => logFailure(dbPath, a.event, message)
        try {
          const input = Schema.decodeUnknownSync(HookInput)(JSON.parse(await readStdin()))
          const sessionId = input.session_id ?? "unknown"
          const cwd = input.cwd ?? process.cwd()
          const caller = { origin: `${a.agent}:session/${sessionId}`, agent: a.agent, project: detectProject(cwd) }
          const task = currentTask({ cwd, env: process.env })?.ref
          const setting = { dbPath, caller, sessionId, nowIso: new Date().toISOString(), ...(task === undefined ? {} : { task }) }
          // After every tool call: no store to open, only the session's state file.
          const work = a.event === "post-tool-use" ? recordToolUse(input, setting) : Effect.provide(runHook(a.event, input, setting), operationsFor(db))
          const program = work.pipe(
            Effect.timeoutFail({ duration: BUDGET, onTimeout: () => new Error(`took longer than ${Duration.format(BUDGET)}`) }),
            Effect.scoped
          )
          const exit = await Effect.runPromiseExit(program)
          if (Exit.isFailure(exit)) return log(Cause.pretty(exit.cause))
          if (exit.value !== undefined) process.stdout.write(`${JSON.stringify(exit.value)}\n`)
        } catch (error) {
          log(error instanceof Error ? error.message : String(error))
        }
      })
    )
).pipe(Command.withDescription("Run an agent hook (reads the agent's JSON on stdin; never fails the session)"))

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length
    if (size > MAX_STDIN) throw new Error(`hook input is over ${MAX_STDIN} bytes`)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString("utf8")
}

const logFailure = (dbPath: string, event: string, message: string): void => {
  try {
    const dir = dirname(dbPath)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    appendFileSync(join(dir, "hooks.log"), `${new Date().toISOString()} ${event}: ${message.replace(/\n/g, " | ").slice(0, 2_000)}\n`, { mode: 0o600 })
  } catch {
    // Nowhere to log: still say nothing, the session matters more.
  }
}
