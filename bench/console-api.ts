/**
 * The console's API calls on a large store: 100,000 memories and 1,000,000 events (adds, then
 * outcomes and recalls, half of them under a task, from a dozen conversations, over two years up
 * to now; support/log-builder.ts), served by the real `mem serve` (bin/mem.js on dist/). Each
 * call the console's pages make is sent one at a time on loopback and timed from request to
 * the whole answer; the p95 of each is reported against the goal of 50 ms, with the first call
 * (before any cache: the overview is reused while nothing is appended) beside it. The Memories list is
 * measured at its first page and at deep pages through the cursor. `why --at` folds the log up to
 * that moment into a store in memory the first time (its "first"), which the server then keeps
 * for that moment: its runs, and another query's, read there.
 *
 *   npm run build && node bench/run.mjs console-api [--memories 100000] [--events 1000000] [--runs 40] [--store FILE] [--calls TEXT]
 *
 * `--calls TEXT` measures only the calls whose name holds TEXT (say, "POST /why (" for the why of
 * now). Each row also gives the server's mean CPU per call over its timed runs (user and system,
 * from /proc, in 10 ms ticks: a mean over many runs, less moved by other load than wall time).
 * `BENCH_SERVER_NODE_FLAGS` passes node flags to the server (a CPU profile, say).
 *
 * Building the log takes minutes; with `--store FILE` it is built there once and kept, and a
 * later run with the same FILE measures on it again (its times then end where it was built).
 */
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { buildLog } from "./support/log-builder.js"
import { environment, fmt, intArg, repoRoot, stringArg, withScratchDir } from "./support/measure.js"
import { cpuSecondsOf } from "./support/process-cpu.js"
import { percentile } from "./support/search-report.js"

const GOAL_MS = 50
const memories = intArg("memories", 100_000)
const events = intArg("events", 1_000_000)
const runs = intArg("runs", 40)
const cli = join(repoRoot(), "bin", "mem.js")

const serve = (db: string) => {
  const flags = process.env.BENCH_SERVER_NODE_FLAGS?.split(" ").filter((f) => f.length > 0) ?? []
  const child = spawn(process.execPath, [...flags, cli, "--db", db, "serve", "--port", "0"], { env: { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_TOKEN: "" }, stdio: ["ignore", "ignore", "pipe"] })
  let stderr = ""
  const url = new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk
      const match = /mem: serving (http:\/\/\S+)/.exec(stderr)
      if (match) resolve(match[1]!)
    })
    child.on("close", (code) => reject(new Error(`mem serve exited (${code}):\n${stderr}`)))
  })
  return { child, url }
}

interface Call {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly body?: unknown
  readonly runs?: number
}

const send = async (url: string, call: Call): Promise<{ ms: number; json: any }> => {
  const started = performance.now()
  const response = await fetch(`${url}${call.path}`, {
    method: call.method,
    ...(call.body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(call.body) })
  })
  const text = await response.text()
  const ms = performance.now() - started
  if (!response.ok) throw new Error(`${call.name}: ${response.status} ${text.slice(0, 300)}`)
  return { ms, json: JSON.parse(text) }
}

const kept = stringArg("store")
const only = stringArg("calls")

/** The server's CPU so far, in ms; NaN once it has gone. */
const serverCpuMs = (pid: number | undefined): number =>
  pid === undefined || !existsSync(`/proc/${pid}/stat`) ? Number.NaN : cpuSecondsOf([pid]) * 1000

const measure = async (db: string) => {
  console.log(`console-api: ${fmt(memories)} memories, ${fmt(events)} events, ${runs} runs a call; ${environment()}`)
  let endMs = Date.now()
  if (!existsSync(db)) {
    const building = performance.now()
    // After the adds: two recalls for every three outcomes.
    buildLog(db, memories, events - memories, (n) => process.stdout.write(`\r  building the log: ${fmt(n)} / ${fmt(events)} events`), { recallShare: 0.4, endMs })
    process.stdout.write(`\n  built in ${((performance.now() - building) / 1000).toFixed(0)} s\n`)
  }
  const server = serve(db)
  try {
    const url = await server.url
    // A kept store ends when it was built: the past is measured from its last event.
    endMs = Date.parse((await send(url, { name: "head", method: "GET", path: "/events?newest_first=true&limit=1" })).json.events[0].recordedAt)
    const newest = (await send(url, { name: "first", method: "GET", path: "/memories?limit=1" })).json.memories[0]
    // The cursors of deep pages, found by walking the list as a client would.
    const deep: Record<number, string> = {}
    let cursor: string | undefined
    for (let seen = 0; seen < 99_000 && seen < memories - 1000; seen += 1000) {
      const page = await send(url, { name: "walk", method: "GET", path: `/memories?limit=1000${cursor === undefined ? "" : `&cursor=${cursor}`}` })
      cursor = page.json.next
      if (seen + 1000 === 50_000 || seen + 1000 === 99_000) deep[seen + 1000] = cursor!
    }
    const past = new Date(endMs - 30 * 86_400_000).toISOString()
    const calls: Call[] = [
      { name: "GET /overview", method: "GET", path: "/overview" },
      { name: "GET /memories (first page of 50)", method: "GET", path: "/memories?limit=50" },
      ...Object.entries(deep).map(([depth, c]): Call => ({ name: `GET /memories (page of 50 after ${fmt(Number(depth))}, by cursor)`, method: "GET", path: `/memories?limit=50&cursor=${c}` })),
      { name: "GET /memories?tags=debugging (filtered)", method: "GET", path: "/memories?limit=50&tags=debugging" },
      { name: "POST /why (Memories search, Why now)", method: "POST", path: "/why", body: { query: "how do we run the database migrations" } },
      // The first call folds the log up to then; the others read the past store the server keeps.
      { name: "POST /why at 30 days ago", method: "POST", path: "/why", body: { query: "how do we run the database migrations", at: past }, runs: 10 },
      { name: "POST /why at 30 days ago, another query", method: "POST", path: "/why", body: { query: "which node version do the tests need", at: past }, runs: 10 },
      { name: "GET /memories/{id}", method: "GET", path: `/memories/${newest.id}` },
      { name: "GET /memories/{id}/record", method: "GET", path: `/memories/${newest.id}/record` },
      { name: "GET /memories/{id}/cues", method: "GET", path: `/memories/${newest.id}/cues` },
      { name: "GET /events?memory= (timeline)", method: "GET", path: `/events?memory=${newest.id}&newest_first=true&limit=200` },
      { name: "GET /conversations", method: "GET", path: "/conversations" },
      { name: "GET /events (Log, newest 100)", method: "GET", path: "/events?newest_first=true&limit=100" },
      { name: "GET /events?types=OutcomeRecorded", method: "GET", path: "/events?newest_first=true&limit=100&types=OutcomeRecorded" },
      { name: "GET /tasks (20 tasks)", method: "GET", path: "/tasks?limit=20" }
    ]
    const rows: string[] = []
    for (const call of calls.filter((c) => only === undefined || c.name.includes(only))) {
      const times: number[] = []
      let first = 0
      let cpu = 0
      try {
        first = (await send(url, call)).ms
        const cpuBefore = serverCpuMs(server.child.pid)
        for (let i = 0; i < (call.runs ?? runs); i++) times.push((await send(url, call)).ms)
        cpu = (serverCpuMs(server.child.pid) - cpuBefore) / times.length
      } catch (error) {
        // fetch gives up on an answer whose headers take over 300 s: said as such, not as a crash.
        console.log(`  ${call.name.padEnd(58)} no answer: ${error instanceof Error ? String(error.cause ?? error.message) : String(error)}`)
        continue
      }
      const p95 = percentile(times, 95)
      rows.push(
        `  ${call.name.padEnd(58)} first ${first.toFixed(1).padStart(7)} ms  p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p95 ${p95.toFixed(1).padStart(7)} ms  ${p95 < GOAL_MS ? "meets" : "misses"}  server CPU ${cpu.toFixed(1)} ms a call`
      )
      console.log(rows[rows.length - 1])
    }
  } finally {
    server.child.kill("SIGTERM")
  }
}

if (kept === undefined) await withScratchDir("console-api", (dir) => measure(join(dir, "ledger.db")))
else await measure(kept)
