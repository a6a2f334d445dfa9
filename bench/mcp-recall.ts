/**
 * MCP recall round trip: the SDK client calls the `recall` tool of `mem mcp` over
 * stdio, one call at a time, against a store of 10,000 memories bulk-loaded with `mem import`;
 * keyword mode. A call's time runs from `callTool` to its parsed reply on the client side, so it
 * holds the JSON-RPC framing both ways, decoding the arguments, the ranking, the
 * MemoriesRecalled append (a write transaction per call) and encoding the result. Goal: p95
 * under 10 ms.
 *
 * Each query is also run in this process through `Operations.recall` on a copy of the same store
 * (see copyStore), right after its MCP call, so that both see the same machine load: the
 * difference is what MCP adds (framing, the SDK's validation on both sides, two processes)
 * over the ranking itself.
 *
 * Wall time on a shared machine mostly measures the neighbours, so the CPU each call costs is
 * printed too: the client's (process.cpuUsage) plus the server's main thread (its on-CPU time
 * from /proc/PID/schedstat, in nanoseconds; Linux only, left out elsewhere).
 *
 *   npm run build && node bench/run.mjs mcp-recall [--memories 10000] [--calls 1000] [--warmup 100]
 *   BENCH_SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=bench/.data/prof" node bench/run.mjs mcp-recall
 *
 * Runs the server as agents do, through bin/mem.js and the built dist/.
 */
import { spawnSync } from "node:child_process"
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { Effect } from "effect"
import { operationsRuntime } from "../src/adapters/mcp/runtime.js"
import { Operations, type Caller } from "../src/api/operations.js"
import { detectProject } from "../src/project/identity.js"
import { generateMemories, makeRandom, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, repoRoot, withScratchDir } from "./support/measure.js"
import { makeQueries } from "./support/search-queries.js"

const GOAL_P95_MS = 10
const memories = intArg("memories", 10_000)
const calls = intArg("calls", 1_000)
const warmup = intArg("warmup", 100)
const cli = join(repoRoot(), "bin", "mem.js")
// Only --db names the store, and search is keyword whatever the shell says.
const env = { MEMLEDGER_DB: "", MEMLEDGER_EMBEDDER: "none" }
/** Node flags for the server process, e.g. to profile it. */
const serverNodeFlags = (process.env["BENCH_SERVER_NODE_FLAGS"] ?? "").split(/\s+/).filter(Boolean)

/** Nearest-rank percentile. */
const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

/** CPU milliseconds this process has used so far. */
const ownCpuMs = (): number => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

/** CPU milliseconds the server's main thread has used so far, or undefined without /proc. */
const serverCpuMs = (pid: number | null): number | undefined => {
  const file = `/proc/${pid}/schedstat`
  return pid !== null && existsSync(file) ? Number(readFileSync(file, "utf8").split(" ")[0]) / 1e6 : undefined
}

const bulkLoad = (dir: string, dbFile: string): void => {
  const corpus = join(dir, "memories.jsonl")
  writeFileSync(corpus, toJsonl(generateMemories(memories)))
  const run = spawnSync(process.execPath, [cli, "--db", dbFile, "import", corpus, "--json"], { encoding: "utf8", env: { ...process.env, ...env } })
  const imported = run.status === 0 ? (JSON.parse(run.stdout) as { imported?: number }).imported : undefined
  if (imported !== memories) {
    console.error(`mcp-recall: 'mem import' did not import ${fmt(memories)} memories (exit ${run.status}); is the CLI built (npm run build)?\n${run.stderr.slice(0, 2000)}`)
    process.exit(2)
  }
}

/**
 * The in-process comparison runs on its own copy of the store. On the server's file, its
 * MemoriesRecalled write after every call made SQLite drop the server's whole page cache (a
 * connection does when another one has written), so each MCP call read its pages again.
 */
const copyStore = (from: string, to: string): string => {
  for (const suffix of ["", "-wal"]) if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix)
  return to
}

await withScratchDir("mcp-recall", async (dir) => {
  console.log(`mcp-recall: MCP 'recall' over stdio on ${fmt(memories)} memories, ${fmt(calls)} calls after ${warmup} warm-up calls, keyword mode; ${environment()}`)
  const dbFile = join(dir, "ledger.db")
  bulkLoad(dir, dbFile)
  const directDb = copyStore(dbFile, join(dir, "direct.db"))

  const client = new Client({ name: "bench", version: "1.0.0" })
  const transport = new StdioClientTransport({ command: process.execPath, args: [...serverNodeFlags, cli, "--db", dbFile, "mcp"], env, stderr: "inherit" })
  await client.connect(transport)
  // The caller the server sees: its current project is the folder it was started in.
  const inProcess = operationsRuntime(directDb)
  await inProcess.ready()
  const caller: Caller = { origin: "bench:in-process", agent: "bench", project: detectProject(process.cwd()) }
  const queries = makeQueries(warmup + calls, generateMemories(memories), makeRandom(4242))
  const wall = { mcp: [] as number[], direct: [] as number[] }
  const cpu = { mcp: [] as number[], server: [] as number[], direct: [] as number[] }
  let withResults = 0
  for (const [i, q] of queries.entries()) {
    const args = q.project === null ? { query: q.query } : { query: q.query, project: q.project }
    const [cpuBefore, serverBefore, started] = [ownCpuMs(), serverCpuMs(transport.pid), performance.now()]
    const result = await client.callTool({ name: "recall", arguments: args })
    const [ms, cpuAfter, serverAfter] = [performance.now() - started, ownCpuMs(), serverCpuMs(transport.pid)]
    if (result.isError) throw new Error(`recall failed for ${JSON.stringify(args)}: ${JSON.stringify(result.content)}`)
    const [directCpuBefore, directStarted] = [ownCpuMs(), performance.now()]
    const exit = await inProcess.run(Effect.flatMap(Operations, (o) => o.recall(args, caller)))
    const [directMs, directCpuAfter] = [performance.now() - directStarted, ownCpuMs()]
    if (exit._tag === "Failure") throw new Error(`Operations.recall failed for ${JSON.stringify(args)}`)
    if (i < warmup) continue
    wall.mcp.push(ms)
    wall.direct.push(directMs)
    if (serverBefore !== undefined && serverAfter !== undefined) {
      cpu.mcp.push(cpuAfter - cpuBefore + (serverAfter - serverBefore))
      cpu.server.push(serverAfter - serverBefore)
    }
    cpu.direct.push(directCpuAfter - directCpuBefore)
    if ((result.structuredContent as { results: unknown[] }).results.length > 0) withResults++
  }
  await inProcess.dispose()
  await client.close()

  const p95 = percentile(wall.mcp, 95)
  console.log(`calls with results: ${fmt(withResults)} of ${fmt(wall.mcp.length)}; load average ${loadavg()[0]!.toFixed(2)}`)
  const row = (label: string, values: number[]) =>
    values.length === 0
      ? `${label}  (not measured here)`
      : `${label}  p50 ${percentile(values, 50).toFixed(2)}   p95 ${percentile(values, 95).toFixed(2)}   p99 ${percentile(values, 99).toFixed(2)}   max ${Math.max(...values).toFixed(2)}`
  console.log(row("MCP recall round trip, wall ms             ", wall.mcp))
  console.log(row("Operations.recall in-process, wall ms      ", wall.direct))
  console.log(row("MCP recall, CPU ms (client + server)       ", cpu.mcp))
  console.log(row("  of which the server's main thread, CPU ms ", cpu.server))
  console.log(row("Operations.recall in-process, CPU ms       ", cpu.direct))
  console.log(`goal p95 < ${GOAL_P95_MS} ms (round trip, wall): ${p95 < GOAL_P95_MS ? "met" : "NOT met"}`)
})
