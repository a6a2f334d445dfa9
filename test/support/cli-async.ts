/**
 * The real `mem` binary as a child process that does not block: for tests whose server runs in
 * the test's own process (a blocking spawnSync would stop it from answering).
 */
import { spawn } from "node:child_process"
import { MEM_BIN, type MemRun } from "./cli.js"

export const memAsync = (args: ReadonlyArray<string>, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<MemRun> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MEM_BIN, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_URL: "", MEMLEDGER_TOKEN: "", ...options.env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.on("error", reject)
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr, json: () => JSON.parse(stdout) }))
  })
