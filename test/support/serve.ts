/**
 * Runs the real `mem serve` (bin/mem.js on the built dist/) as a child process on a free port,
 * reads the URL it prints, and talks to it with fetch. Call `stopAllServers` after each test
 * (or file), so that a failing test leaks no process.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { request as httpRequest } from "node:http"
import { MEM_BIN, tempDir } from "./cli.js"

export interface Served {
  readonly url: string
  readonly child: ChildProcess
  readonly stderr: () => string
  /** Sends `signal` and resolves with how the process ended. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<Ended>
  readonly exited: Promise<Ended>
  /** Resolves as `event` does; fails, saying so with the server's stderr, if the server exits first. */
  readonly before: <A>(event: Promise<A>, what: string) => Promise<A>
  /** fetch relative to the server, with a JSON body when one is given. */
  readonly call: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>
}

export interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stderr: string
}

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: () => any
}

export interface ServeOptions {
  readonly args?: ReadonlyArray<string>
  /** Extra environment; HOME is a fresh temp folder unless given, MEMLEDGER_TOKEN unset. */
  readonly env?: Record<string, string>
  /** 0 (any free port) unless given. */
  readonly port?: number
}

const SERVING = /mem: serving (http:\/\/\S+)/

const running = new Set<ChildProcess>()

export const stopAllServers = (): void => {
  for (const child of running) child.kill("SIGKILL")
}

/** Starts `mem --db DB serve --port 0 ARGS` and resolves once it prints its URL. */
export const startServe = (db: string, options: ServeOptions = {}): Promise<Served> => {
  const spawned = spawnServe(db, options)
  return spawned.url.then((url) => served(url, spawned.child, spawned.stderr, spawned.exited))
}

/** Runs `mem serve` expecting it to refuse to start: resolves with its exit (a server that starts is killed, and its exit says SIGKILL). */
export const serveRefusal = (db: string, options: ServeOptions = {}): Promise<Ended> => {
  const spawned = spawnServe(db, options)
  spawned.url.then(() => spawned.child.kill("SIGKILL"), () => undefined)
  return spawned.exited
}

const spawnServe = (db: string, options: ServeOptions) => {
  const env = { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_TOKEN: "", HOME: tempDir("memledger-home-"), ...options.env }
  const child = spawn(process.execPath, [MEM_BIN, "--db", db, "serve", "--port", String(options.port ?? 0), ...(options.args ?? [])], { env, stdio: ["ignore", "ignore", "pipe"] })
  running.add(child)
  child.on("exit", () => running.delete(child))
  let stderr = ""
  const exited = new Promise<Ended>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })))
  const url = new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
      const match = SERVING.exec(stderr)
      if (match) resolve(match[1]!)
    })
    void exited.then(({ code, signal }) => reject(new Error(`mem serve exited (${code ?? signal}) before serving:\n${stderr}`)))
  })
  return { child, exited, url, stderr: () => stderr }
}

const served = (url: string, child: ChildProcess, stderr: () => string, exited: Promise<Ended>): Served => ({
  url,
  child,
  stderr,
  exited,
  stop: (signal = "SIGTERM") => {
    child.kill(signal)
    return exited
  },
  before: (event, what) =>
    Promise.race([
      event,
      exited.then(({ code, signal, stderr }) => Promise.reject(new Error(`mem serve exited (${code ?? signal}) before ${what}:\n${stderr}`)))
    ]),
  call: (method, path, body, headers = {}) => request(url, method, path, body, headers)
})

export const request = async (url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
  const init: RequestInit =
    body === undefined
      ? { method, headers }
      : { method, headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) }
  const response = await fetch(`${url}${path}`, init)
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) }
}

/**
 * A request through node:http, which (unlike fetch) sends any Host header it is given: for
 * testing what the server does with a Host or Origin that a browser under attack would send.
 */
export const rawRequest = (url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const req = httpRequest({ hostname, port, method, path, headers }, (res) => {
      let text = ""
      res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk))
      res.on("end", () => {
        const answerHeaders = new Headers()
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(", ") : value)
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text, json: () => JSON.parse(text) })
      })
    })
    req.on("error", reject)
    req.end(body)
  })
