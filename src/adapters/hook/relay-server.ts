/**
 * The server's side of the hook relay (relay-client.ts is the hook's): `mem mcp` and `mem serve`
 * on their own store (a file or a database) listen on a socket in that store's state folder,
 * and run each hook handed to them over their own `Operations`, exactly as the hook would have
 * run it in its own process.
 *
 * One server per store listens. A socket file left by a server that was killed answers no
 * connection and is replaced; one that answers belongs to a live server, which keeps it.
 */
import { chmodSync, mkdirSync, rmSync } from "node:fs"
import { createServer, type Server, type Socket } from "node:net"
import { dirname } from "node:path"
import { Cause, Effect, Exit } from "effect"
import { readHookInput } from "../../hooks/hook-input.js"
import { hookSocketPath, isStoreHookEvent, type HookRequest, type StoreHookOutcome } from "../../hooks/hook-request.js"
import { listensAt } from "../../hooks/relay-probe.js"
import type { Operations } from "../../api/operations.js"
import { hookOutcomeOf, hookProgram } from "./hook-program.js"

/** Runs a program on the server's open store, to its Exit (the MCP adapter's `RunOperation` is one). */
export type RunOnStore = <A>(effect: Effect.Effect<A, never, Operations>) => Promise<Exit.Exit<A, unknown>>

/** A hook's input is at most 8 MiB (run-hook.ts); with its environment, a request stays well under this. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024

export interface HookRelay {
  readonly path: string
  /** Stops taking hooks; those already taken finish on the runtime, which its owner closes, and answer. */
  readonly close: () => Promise<void>
}

/** Listens for the hooks of `store`; undefined when another live server already does, or no socket can be made. */
export const listenForHooks = async (store: string, run: RunOnStore, env: NodeJS.ProcessEnv = process.env): Promise<HookRelay | undefined> => {
  const path = hookSocketPath(store, env)
  if (path === undefined) return undefined
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    // Half open: a hook ends its side once its request is written, and still waits for the answer.
    // Connections whose request has not all come yet: a server that closes drops them.
    const reading = new Set<Socket>()
    const server = createServer({ allowHalfOpen: true }, (socket) => serveOne(socket, store, run, reading))
    if (!(await listen(server, path))) {
      if (await listensAt(path)) return undefined
      rmSync(path, { force: true })
      if (!(await listen(server, path))) return undefined
    }
    // The folder is its owner's alone; the socket says so too, whatever the umask.
    chmodSync(path, 0o600)
    server.unref()
    // Closing stops new hooks at once; the hooks already running answer (the runtime's owner
    // waits for them), and a connection still sending would hold the process open: it goes.
    return {
      path,
      close: async () => {
        server.close()
        for (const socket of reading) socket.destroy()
      }
    }
  } catch {
    return undefined
  }
}

/** Whether `server` now listens on `path`; false when the path is taken. */
const listen = (server: Server, path: string): Promise<boolean> =>
  new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => (error.code === "EADDRINUSE" ? resolve(false) : reject(error))
    server.once("error", onError)
    server.listen(path, () => {
      server.off("error", onError)
      resolve(true)
    })
  })

const serveOne = (socket: Socket, store: string, run: RunOnStore, reading: Set<Socket>): void => {
  reading.add(socket)
  socket.on("close", () => reading.delete(socket))
  const chunks: Buffer[] = []
  let size = 0
  socket.on("error", () => socket.destroy())
  socket.on("data", (chunk: Buffer) => {
    size += chunk.length
    if (size > MAX_REQUEST_BYTES) return socket.destroy()
    chunks.push(chunk)
  })
  socket.on("end", () => {
    reading.delete(socket)
    void outcomeFor(Buffer.concat(chunks).toString("utf8"), store, run).then((outcome) => {
      // `output` is written even when there is none: JSON would drop an undefined one.
      const answer = "failure" in outcome ? outcome : { output: outcome.output ?? null }
      if (!socket.destroyed) socket.end(`${JSON.stringify(answer)}\n`)
    })
  })
}

const outcomeFor = async (line: string, store: string, run: RunOnStore): Promise<StoreHookOutcome> => {
  const request = requestOf(line, store)
  if ("problem" in request) return { failure: request.problem }
  // The hook's own failure is its outcome; the outer one is the store's (it could not be used).
  const exit = await run(Effect.exit(hookProgram(request)))
  return Exit.isSuccess(exit) ? hookOutcomeOf(exit.value) : { failure: Cause.pretty(exit.cause) }
}

/** The request a hook sent, checked field by field; its session state belongs to this server's store. */
const requestOf = (line: string, store: string): HookRequest | { readonly problem: string } => {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return { problem: "the hook's request is not JSON" }
  }
  const { event, agent, input, place, cwd, env } = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>
  if (typeof event !== "string" || !isStoreHookEvent(event)) return { problem: `not a hook that uses the store: ${String(event)}` }
  const reading = readHookInput(input)
  if ("problem" in reading) return reading
  const { sessionId, nowIso } = (typeof place === "object" && place !== null ? place : {}) as Record<string, unknown>
  if (typeof agent !== "string" || typeof cwd !== "string" || typeof sessionId !== "string" || typeof nowIso !== "string" || !isTextRecord(env)) {
    return { problem: "the hook's request lacks its agent, folder, session, time or environment" }
  }
  return { event, agent, input: reading.input, place: { dbPath: store, sessionId, nowIso }, cwd, env }
}

const isTextRecord = (value: unknown): value is NodeJS.ProcessEnv =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "string")
