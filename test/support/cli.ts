/** Runs the real `mem` binary as a child process, the way a person or a hook does. */
import { spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { startWorker } from "./processes.js"

export const MEM_BIN = resolve("bin/mem.js")

export interface MemRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  /** stdout parsed as the single JSON value --json promises. */
  readonly json: () => any
}

export const tempDir = (prefix = "memledger-"): string => mkdtempSync(join(tmpdir(), prefix))

export const mem = (args: ReadonlyArray<string>, options: { input?: string; cwd?: string; env?: Record<string, string> } = {}): MemRun => {
  const result = spawnSync(process.execPath, [MEM_BIN, ...args], {
    encoding: "utf8",
    input: options.input ?? "",
    cwd: options.cwd ?? process.cwd(),
    env: { ...process.env, MEMLEDGER_DB: "", ...options.env }
  })
  return {
    code: result.status ?? -1,
    stdout: result.stdout,
    stderr: result.stderr,
    json: () => JSON.parse(result.stdout)
  }
}

/** A `mem` bound to one fresh store file. */
export const memAt = (db: string) => (...args: string[]) => mem(["--db", db, ...args])

/**
 * Creates an empty store at `db`, as the first write would: for tests of commands that need
 * one to exist (every command but add, import and replay reports a missing store instead).
 */
export const createStore = (db: string): string => {
  const created = mem(["--db", db, "import", "-"])
  if (created.code !== 0) throw new Error(`cannot create a store at ${db}: ${created.stderr}`)
  return db
}

/** How many events the store holds (up to log's page of 100): 0 when a failed first write left no store. */
export const eventsIn = (run: ReturnType<typeof memAt>): number => {
  const log = run("log", "--json")
  if (log.code === 0) return log.json().length
  if (JSON.parse(log.stderr).error === "StoreNotFound") return 0
  throw new Error(`mem log failed: ${log.stderr}`)
}

/**
 * Another process holding the store's write lock (`BEGIN IMMEDIATE`), as a busy agent's server
 * might, until `release` ends its transaction with `end`. Resolves once the lock is held.
 */
export const holdWriteLock = async (db: string, end: "COMMIT" | "ROLLBACK" = "COMMIT"): Promise<{ readonly release: () => Promise<void> }> => {
  const holder = startWorker("lock-holder.mjs", [db, end])
  await holder.waitForLine((line) => line === "locked")
  return {
    release: async () => {
      holder.child.stdin!.end()
      const { code, stderr } = await holder.exited
      if (code !== 0) throw new Error(`the lock holder failed (${code}): ${stderr}`)
    }
  }
}
