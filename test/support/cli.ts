/** Runs the real `mem` binary as a child process, the way a person or a hook does. */
import { spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"

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
