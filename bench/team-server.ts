/**
 * One server on SQLite, one on PostgreSQL, two on one PostgreSQL database, side by side on
 * this machine: HTTP search throughput and latency at `--memories` memories (POST /search by
 * autocannon, the connections split evenly over the servers), then append throughput with 4
 * concurrent writers (POST /memories, each body new). Reported without a goal: two cores shared
 * by the servers, the database and the load cannot show what a second server adds.
 *
 *   node bench/run.mjs team-server --pg postgres://SERVER [--memories 10000] [--seconds 10] [--connections 10]
 *
 * Runs the CLI as users do, through bin/mem.js and the built dist/ (`npm run build` first).
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import autocannon, { type RawRequest, type Result } from "autocannon"
import { generateMemories, makeRandom, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, withScratchDir } from "./support/measure.js"
import { runMem, serve } from "./support/mem-process.js"
import { pgServerArg, scratchStore } from "./support/scratch-store.js"
import { makeQueries } from "./support/search-queries.js"

const server = pgServerArg()
if (server === undefined) {
  console.error("usage: node bench/run.mjs team-server --pg postgres://SERVER [--memories N] [--seconds N] [--connections N]")
  process.exit(2)
}
const memories = intArg("memories", 10_000)
const seconds = intArg("seconds", 10)
const connections = intArg("connections", 10)
const WRITERS = 4

/** Load on every URL at once, the connections split among them; the results summed. */
const loadAll = async (urls: ReadonlyArray<string>, total: number, request: (n: number) => RawRequest) => {
  let next = 0
  const results = await Promise.all(
    urls.map((url) =>
      autocannon({ url, connections: Math.max(1, Math.round(total / urls.length)), duration: seconds, pipelining: 1, requests: [{ ...request(0), setupRequest: (r) => ({ ...r, ...request(next++) }) }] })
    )
  )
  const answered = results.reduce((n, r: Result) => n + r["2xx"], 0)
  const failed = results.reduce((n, r: Result) => n + r.non2xx + r.errors + r.timeouts, 0)
  const worst = (p: "p50" | "p99") => Math.max(...results.map((r) => r.latency[p]))
  return { perSecond: answered / seconds, failed, p50: worst("p50"), p99: worst("p99") }
}

await withScratchDir("team-server", async (dir) => {
  console.log(`team-server: ${fmt(memories)} memories, ${connections} search connections, ${WRITERS} writers, ${seconds} s each; ${environment()}`)
  const corpus = generateMemories(memories)
  const jsonl = join(dir, "memories.jsonl")
  writeFileSync(jsonl, toJsonl(corpus))
  const sqlite = join(dir, "ledger.db")
  runMem(sqlite, ["import", jsonl])
  const exported = join(dir, "log.jsonl")
  runMem(sqlite, ["export", exported])
  const database = await scratchStore("team-server", server)
  runMem(database.location, ["replay", exported])
  const bodies = makeQueries(2_000, corpus, makeRandom(memories)).map((q) => JSON.stringify(q.project === null ? { query: q.query } : { query: q.query, project: q.project }))
  const search = (n: number): RawRequest => ({ method: "POST", path: "/search", headers: { "content-type": "application/json" }, body: bodies[n % bodies.length]! })
  const add = (n: number): RawRequest => ({
    method: "POST",
    path: "/memories",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ content: `Bench note ${n} ${Math.random().toString(36).slice(2)} about the deploy queue`, category: "gotcha" })
  })
  try {
    for (const [name, db, count] of [["SQLite, one server", sqlite, 1], ["PostgreSQL, one server", database.location, 1], ["PostgreSQL, two servers", database.location, 2]] as const) {
      const servers = Array.from({ length: count }, () => serve(db))
      try {
        const urls = await Promise.all(servers.map((s) => s.url))
        await loadAll(urls, connections, search)
        const searched = await loadAll(urls, connections, search)
        const appended = await loadAll(urls, WRITERS, add)
        console.log(
          `${name.padEnd(24)} search ${fmt(searched.perSecond).padStart(6)}/s p50 ${searched.p50} ms p99 ${searched.p99} ms (${searched.failed} failed);` +
            ` append ${fmt(appended.perSecond).padStart(5)}/s p50 ${appended.p50} ms p99 ${appended.p99} ms (${appended.failed} failed)`
        )
      } finally {
        for (const s of servers) s.child.kill("SIGTERM")
        await Promise.all(servers.map((s) => s.exited))
      }
    }
  } finally {
    await database.remove()
  }
})
