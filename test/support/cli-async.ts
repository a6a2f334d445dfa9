/**
 * The real `mem` binary as a child process that does not block: for tests whose server runs in
 * the test's own process (a blocking spawnSync would stop it from answering), and for tests that
 * watch the process while it runs.
 */
import { spawn } from "node:child_process"
import { MEM_BIN, type MemRun } from "./cli.js"

export interface MemStarted {
  readonly pid: number
  /** Set once the process has ended. */
  readonly ended: () => boolean
  readonly result: Promise<MemRun>
}

/** `input`: what the process reads on stdin (a hook's JSON); without it, stdin is closed. */
export const memStarted = (args: ReadonlyArray<string>, options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): MemStarted => {
  const child = spawn(process.execPath, [MEM_BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_URL: "", MEMLEDGER_TOKEN: "", ...options.env },
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"]
  })
  if (options.input !== undefined) child.stdin!.end(options.input)
  let stdout = ""
  let stderr = ""
  let ended = false
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const result = new Promise<MemRun>((resolve, reject) => {
    child.on("error", reject)
    child.on("close", (code) => {
      ended = true
      resolve({ code: code ?? -1, stdout, stderr, json: () => JSON.parse(stdout) })
    })
  })
  return { pid: child.pid!, ended: () => ended, result }
}

export const memAsync = (args: ReadonlyArray<string>, options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<MemRun> =>
  memStarted(args, options).result
