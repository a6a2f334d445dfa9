/**
 * HTTP search throughput: `mem serve` over 10,000 memories (support/corpus.ts, bulk-loaded with
 * `mem import` of a generated JSONL), hit with POST /search on loopback by autocannon, 10
 * connections for 10 s after a 2 s warm-up, queries from support/search-queries.ts sent from
 * the projects they belong to. Keyword mode. Each search appends a MemoriesRecalled event (a
 * write transaction): that is part of the cost and is measured as is. Goal: at least
 * 1,000 requests/s on this 2-core machine; the server and autocannon get a core each. Then
 * 5 s of GET /health, to show what the HTTP layer alone can carry. "Events appended" exceeds
 * the searches answered by those still in flight when autocannon stopped counting.
 *
 *   node bench/run.mjs http-search [--memories 10000] [--seconds 10] [--connections 10]
 *   BENCH_SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=bench/.data/prof" node bench/run.mjs http-search
 *
 * Runs the CLI as users do, through bin/mem.js and the built dist/ (`npm run build` first).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import { join } from "node:path"
import autocannon, { type Result } from "autocannon"
import { generateMemories, makeRandom, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, withScratchDir } from "./support/measure.js"
import { makeQueries } from "./support/search-queries.js"
import { runMem, serve } from "./support/mem-process.js"

const GOAL_PER_SECOND = 1_000
const WARM_UP_SECONDS = 2
const QUERY_COUNT = 2_000
const HEALTH_SECONDS = 5

const memories = intArg("memories", 10_000)
const seconds = intArg("seconds", 10)
const connections = intArg("connections", 10)

/** CPU seconds (user + system) a process has used, from /proc; undefined where there is none. */
const processCpuSeconds = (pid: number): number | undefined => {
  const times = processCpuTimes(pid)
  return times === undefined ? undefined : times.user + times.system
}

/** User and system (kernel: socket writes, SQLite's file I/O) CPU seconds of a process, from /proc. */
const processCpuTimes = (pid: number): { user: number; system: number } | undefined => {
  const file = `/proc/${pid}/stat`
  if (!existsSync(file)) return undefined
  const fields = readFileSync(file, "utf8").split(") ")[1]!.split(" ")
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }
}

const statsEvents = async (url: string): Promise<number> => ((await (await fetch(`${url}/stats`)).json()) as { events: number }).events

const load = (url: string, duration: number, bodies: ReadonlyArray<string>): Promise<Result> => {
  let next = 0
  return autocannon({
    url,
    connections,
    duration,
    pipelining: 1,
    requests: [
      {
        method: "POST",
        path: "/search",
        headers: { "content-type": "application/json" },
        setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length]! })
      }
    ]
  })
}

/** GET /health for comparison: the HTTP layer with no store work (guard, routing, encoding), its ceiling. */
const loadHealth = (url: string, duration: number): Promise<Result> => autocannon({ url, connections, duration, pipelining: 1, requests: [{ method: "GET", path: "/health" }] })

await withScratchDir("http-search", async (dir) => {
  console.log(`http-search: POST /search over ${fmt(memories)} memories, ${connections} connections, ${seconds} s after ${WARM_UP_SECONDS} s warm-up; ${environment()}`)
  const corpus = generateMemories(memories)
  const jsonl = join(dir, "memories.jsonl")
  writeFileSync(jsonl, toJsonl(corpus))
  const db = join(dir, "ledger.db")
  const imported = JSON.parse(runMem(db, ["import", jsonl, "--json"])) as { imported: number }
  if (imported.imported !== memories) throw new Error(`expected ${memories} memories, mem import stored ${imported.imported}`)

  const bodies = makeQueries(QUERY_COUNT, corpus, makeRandom(memories)).map((q) => JSON.stringify(q.project === null ? { query: q.query } : { query: q.query, project: q.project }))
  const server = serve(db)
  const url = await server.url
  try {
    await load(url, WARM_UP_SECONDS, bodies)
    const eventsBefore = await statsEvents(url)
    const cpuBefore = processCpuTimes(server.child.pid!)
    const result = await load(url, seconds, bodies)
    const cpuAfter = processCpuTimes(server.child.pid!)
    const appended = (await statsEvents(url)) - eventsBefore

    const answered = result["2xx"]
    const perSecond = answered / result.duration
    console.log(`  answered ${fmt(answered)} searches in ${result.duration.toFixed(1)} s: ${fmt(perSecond)} requests/s (autocannon mean per second ${fmt(result.requests.average)})`)
    console.log(`  latency: p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`)
    console.log(`  non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}; MemoriesRecalled events appended: ${fmt(appended)}`)
    if (cpuBefore !== undefined && cpuAfter !== undefined) {
      const user = cpuAfter.user - cpuBefore.user
      const system = cpuAfter.system - cpuBefore.system
      const cpu = user + system
      const perSearch = (seconds: number) => `${((seconds / answered) * 1000).toFixed(2)} ms`
      console.log(
        `  server cpu: ${cpu.toFixed(1)} s over ${result.duration.toFixed(1)} s (${((cpu / result.duration) * 100).toFixed(0)}% of one core), ${perSearch(cpu)} per search (user ${perSearch(user)}, system ${perSearch(system)})`
      )
    }
    const healthCpuBefore = processCpuSeconds(server.child.pid!)
    const health = await loadHealth(url, HEALTH_SECONDS)
    const healthCpuAfter = processCpuSeconds(server.child.pid!)
    const healthCpu =
      healthCpuBefore !== undefined && healthCpuAfter !== undefined ? `, server cpu ${(((healthCpuAfter - healthCpuBefore) / health["2xx"]) * 1000).toFixed(3)} ms per request` : ""
    console.log(`  for comparison, GET /health (no store work): ${fmt(health["2xx"] / health.duration)} requests/s, p50 ${health.latency.p50} ms, p99 ${health.latency.p99} ms${healthCpu}`)
    console.log(`  load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(" ")}`)
    const verdict = perSecond >= GOAL_PER_SECOND && result.non2xx === 0 && result.errors === 0 ? "meets" : "misses"
    console.log(`${fmt(perSecond)} searches/s over HTTP at ${fmt(memories)} memories, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ${verdict} the goal of ${fmt(GOAL_PER_SECOND)}/s with no errors`)
  } finally {
    server.child.kill("SIGTERM")
    const code = await server.exited
    if (code !== 0) console.error(`mem serve exited ${code}:\n${server.stderr()}`)
  }
})
