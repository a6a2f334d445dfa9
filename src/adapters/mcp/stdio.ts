/**
 * `mem mcp`: the MCP server over stdio, one per agent process. stdout carries only the protocol,
 * so everything else (including a stray console.log in a dependency) goes to stderr. The
 * session is the process: its writes are `<client name>:<one id per process>`, and the current
 * project is the git remote of the folder the client started it in. On its own store (not a
 * server MEMLEDGER_URL names) it also runs the agent hooks handed to it (adapters/hook/relay-server.ts).
 */
import { randomUUID } from "node:crypto"
import type { Readable, Writable } from "node:stream"
import { remoteFromEnv } from "../../api/remote-config.js"
import { detectProject } from "../../project/identity.js"
import { listenForHooks } from "../hook/relay-server.js"
import { currentTask } from "../../tasks/find-tasks.js"
import { sessionCaller } from "./caller.js"
import { operationsRuntime, type OperationsRuntime } from "./runtime.js"
import { makeMcpServer } from "./server.js"
import { StdioLineTransport } from "./stdio-transport.js"

export interface StdioSession {
  /** Resolves when the client closes stdin. */
  readonly done: Promise<void>
  /** Lets the calls still running finish, closes the store, then the server. Safe to call twice. */
  readonly close: () => Promise<void>
}

/** Opens the store (rejecting if it cannot be used) and serves MCP on this process's stdin/stdout. */
export const serveStdio = async (dbPath: string): Promise<StdioSession> => {
  keepStdoutForTheProtocol()
  const runtime = operationsRuntime(dbPath)
  await runtime.ready()
  // Before the protocol starts, so that once a client is answered, so are the store's hooks.
  const relay = remoteFromEnv() === undefined ? await listenForHooks(dbPath, runtime.run) : undefined
  const session = await serveOn(runtime, { stdin: process.stdin, stdout: process.stdout, cwd: process.cwd() })
  return {
    done: session.done,
    close: async () => {
      await relay?.close()
      await session.close()
    }
  }
}

export interface StdioStreams {
  readonly stdin: Readable
  readonly stdout: Writable
  /** The folder whose project is "the current project". */
  readonly cwd: string
}

export const serveOn = async (runtime: OperationsRuntime, io: StdioStreams): Promise<StdioSession> => {
  await runtime.ready()
  const session = randomUUID()
  const project = detectProject(io.cwd)
  // The task in progress is read at each call: it changes during a session.
  const server = makeMcpServer(runtime.run, (client) => {
    const task = currentTask({ cwd: io.cwd, env: process.env })?.ref
    return { ...sessionCaller(client, session, project), ...(task === undefined ? {} : { task }) }
  })
  const done = new Promise<void>((resolve) => {
    io.stdin.once("end", resolve)
    io.stdin.once("close", resolve)
  })
  await server.connect(new StdioLineTransport(io.stdin, io.stdout))
  let closing: Promise<void> | undefined
  // Closing the server drops the replies of calls still running, so they finish first: a client
  // may write its last request and close stdin at once, and still deserves the answer.
  const close = () =>
    (closing ??= (async () => {
      await runtime.dispose()
      await new Promise((resolve) => setImmediate(resolve))
      await server.close()
    })())
  return { done, close }
}

const keepStdoutForTheProtocol = (): void => {
  const toStderr = (...args: unknown[]) => console.error(...args)
  console.log = toStderr
  console.info = toStderr
  console.debug = toStderr
  console.warn = toStderr
}
