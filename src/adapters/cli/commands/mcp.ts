/**
 * `mem mcp`: the MCP server on stdin/stdout, started by an agent (docs/mcp.md). It runs until
 * the client closes stdin, then closes the store and exits 0. The server is loaded only here,
 * so the MCP SDK costs nothing to the start-up of every other command.
 */
import { Command } from "@effect/cli"
import { Effect, Option } from "effect"
import { defaultDbPath } from "../../../services/app.js"
import { fail } from "../output.js"
import { mem } from "../root.js"

export const mcp = Command.make("mcp", {}, () =>
  Effect.flatMap(mem, ({ db }) => {
    const path = Option.getOrElse(db, () => defaultDbPath())
    return Effect.acquireUseRelease(
      Effect.tryPromise(async () => (await import("../../mcp/stdio.js")).serveStdio(path)),
      (session) => Effect.promise(() => session.done),
      (session) => Effect.promise(() => session.close())
    ).pipe(Effect.catchAll(({ error }) => Effect.sync(() => fail(false, tagOf(error), messageOf(error)))))
  })
).pipe(Command.withDescription("Serve memledger to an agent over MCP on stdin/stdout (see docs/mcp.md)"))

const tagOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" ? error._tag : "McpServerFailed"

const messageOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" ? error.message : String(error)
