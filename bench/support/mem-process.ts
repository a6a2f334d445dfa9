/**
 * The CLI as users run it, through bin/mem.js and the built dist/ (`npm run build` first): a
 * command to completion, or `mem serve --port 0` until it says where it serves.
 */
import { spawn, spawnSync } from "node:child_process"
import { join } from "node:path"
import { repoRoot } from "./measure.js"

const cli = join(repoRoot(), "bin", "mem.js")
/** Node flags for the `mem serve` process, e.g. to profile it. */
const serverNodeFlags = (process.env["BENCH_SERVER_NODE_FLAGS"] ?? "").split(/\s+/).filter(Boolean)

/** `mem --db DB ARGS` as a person runs it; exits the bench on failure. */
export const runMem = (db: string, args: ReadonlyArray<string>): string => {
  const run = spawnSync(process.execPath, [cli, "--db", db, ...args], { encoding: "utf8", env: { ...process.env, MEMLEDGER_DB: "" }, maxBuffer: 64 * 1024 * 1024 })
  if (run.status !== 0) {
    console.error(`bench: 'mem ${args.join(" ")}' exited ${run.status}; is the CLI built (npm run build)?\n${run.stderr.slice(0, 2000)}`)
    process.exit(2)
  }
  return run.stdout
}

/** Starts `mem serve --port 0` and resolves with its URL and pid once it serves. */
export const serve = (db: string) => {
  const env = { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_TOKEN: "" }
  const child = spawn(process.execPath, [...serverNodeFlags, cli, "--db", db, "serve", "--port", "0"], { env, stdio: ["ignore", "ignore", "pipe"] })
  let stderr = ""
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)))
  const url = new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
      const match = /mem: serving (http:\/\/\S+)/.exec(stderr)
      if (match) resolve(match[1]!)
    })
    void exited.then((code) => reject(new Error(`mem serve exited (${code}) before serving:\n${stderr}`)))
  })
  return { child, url, exited, stderr: () => stderr }
}

