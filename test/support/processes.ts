/** Spawns real `node` processes running the worker scripts in this folder, and talks to them by lines. */
import { spawn, type ChildProcess } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, afterEach, beforeAll } from "vitest"
import { makeTempDir, removeDir } from "./temp-store.js"

const HERE = dirname(fileURLToPath(import.meta.url))

export interface Worker {
  readonly child: ChildProcess
  /** Resolves with the first stdout line that satisfies `match`. */
  readonly waitForLine: (match: (line: string) => boolean) => Promise<string>
  /** Resolves when the process has exited, with its code or signal and its stderr. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>
  readonly lines: () => ReadonlyArray<string>
}

const running = new Set<ChildProcess>()

/** Kills every worker still running: call it after each test, so a failure or timeout leaks none. */
export const stopAllWorkers = (): void => {
  for (const child of running) child.kill("SIGKILL")
}

export const startWorker = (script: string, args: ReadonlyArray<string>): Worker => {
  const child = spawn(process.execPath, [join(HERE, script), ...args], { stdio: ["pipe", "pipe", "pipe"] })
  running.add(child)
  child.on("exit", () => running.delete(child))
  const lines: string[] = []
  const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = []
  let pending = ""
  let stderr = ""
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk
    let newline = pending.indexOf("\n")
    while (newline >= 0) {
      const line = pending.slice(0, newline)
      pending = pending.slice(newline + 1)
      lines.push(line)
      for (const w of waiters.filter((w) => w.match(line))) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve(line)
      }
      newline = pending.indexOf("\n")
    }
  })
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stderr }))
  )
  const waitForLine = (match: (line: string) => boolean) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find(match)
      if (seen !== undefined) return resolve(seen)
      waiters.push({ match, resolve })
      void exited.then(({ code, signal }) => reject(new Error(`${script} exited (${code ?? signal}) before the line expected:\n${stderr}`)))
    })
  return { child, waitForLine, exited, lines: () => lines }
}

/**
 * For a test file whose workers share one temporary folder: made before its tests, every worker
 * killed after each test, and the folder removed at the end. Returns the folder's path (known
 * once the tests run).
 */
export const workersInTempDir = (): (() => string) => {
  let dir = ""
  beforeAll(() => {
    dir = makeTempDir()
  })
  afterEach(stopAllWorkers)
  afterAll(() => {
    stopAllWorkers()
    removeDir(dir)
  })
  return () => dir
}
