/**
 * CLI start-up: wall time of `node bin/mem.js --db FILE stats --json` on a 10,000-memory store,
 * next to bare `node -e 0`. Goal: the CLI under 4x bare node. Each command gets 2
 * warm-up runs, then 15 timed runs, interleaved so that a noisy neighbour hurts both alike;
 * medians count. The CPU time of each child is printed too: on shared cores it moves far less
 * than wall time.
 *
 *   node bench/run.mjs cli-start [--memories 10000] [--runs 15]
 *
 * Runs the CLI as users do, through bin/mem.js and the built dist/ (`npm run build` first).
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import { AppLayer } from "../src/services/app.js"
import { Maintenance } from "../src/services/maintenance.js"
import { generateMemories, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, median, repoRoot, withScratchDir } from "./support/measure.js"

const GOAL_RATIO = 4
const WARM_UPS = 2

const memories = intArg("memories", 10_000)
const runs = intArg("runs", 15)
const cli = join(repoRoot(), "bin", "mem.js")

interface Timed {
  readonly ms: number
  /** CPU time (user + system) of the child, in ms; undefined where /proc is missing. */
  readonly cpuMs: number | undefined
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

const time = (args: ReadonlyArray<string>): Timed => {
  const cpuBefore = childrenCpuMs()
  const started = performance.now()
  // MEMLEDGER_DB is cleared so that only --db names the store.
  const run = spawnSync(process.execPath, args, { encoding: "utf8", env: { ...process.env, MEMLEDGER_DB: "" } })
  const ms = performance.now() - started
  const cpuAfter = childrenCpuMs()
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore
  return { ms, cpuMs, status: run.status, stdout: run.stdout, stderr: run.stderr }
}

/**
 * CPU time of this process's waited-for children (Linux: cutime + cstime of /proc/self/stat, in
 * clock ticks of 10 ms). Other load on the shared cores stretches wall time far more than this.
 */
const childrenCpuMs = (): number | undefined => {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    // Fields 16 and 17 of stat(5) (cutime, cstime), counted from field 3 here.
    return (Number(fields[13]) + Number(fields[14])) * 10
  } catch {
    return undefined
  }
}

/** Exits with a message when the CLI cannot answer yet, rather than timing an error path. */
const checkCli = (dbFile: string): void => {
  const probe = existsSync(cli) ? time([cli, "--db", dbFile, "stats", "--json"]) : undefined
  const stats = probe?.status === 0 ? parseJson(probe.stdout) : undefined
  const live = (stats as { memories?: { live?: number } } | undefined)?.memories?.live
  if (live === memories) return
  console.error(
    probe === undefined
      ? `cli-start: ${cli} does not exist yet`
      : `cli-start: 'mem stats --json' did not report ${fmt(memories)} live memories (exit ${probe.status}); is the CLI built (npm run build)?\n${(probe.stderr || probe.stdout).slice(0, 2000)}`
  )
  process.exit(2)
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

await withScratchDir("cli-start", async (dir) => {
  console.log(`cli-start: 'mem stats --json' on ${fmt(memories)} memories vs 'node -e 0', ${runs} runs after ${WARM_UPS} warm-ups; ${environment()}`)
  const dbFile = join(dir, "ledger.db")
  const report = await Effect.gen(function* () {
    const maintenance = yield* Maintenance
    return yield* maintenance.importJsonl(toJsonl(generateMemories(memories)), { origin: "bench:cli-start", agent: "bench" })
  }).pipe(Effect.provide(AppLayer(dbFile)), Effect.runPromise)
  if (report.imported !== memories) throw new Error(`expected ${memories} memories, the import stored ${report.imported}`)
  checkCli(dbFile)

  const commands = {
    node: ["-e", "0"],
    mem: [cli, "--db", dbFile, "stats", "--json"]
  } as const
  const times: Record<keyof typeof commands, number[]> = { node: [], mem: [] }
  const cpu: Record<keyof typeof commands, number[]> = { node: [], mem: [] }
  for (let i = 0; i < WARM_UPS + runs; i++) {
    for (const name of ["node", "mem"] as const) {
      const run = time(commands[name])
      if (run.status !== 0) throw new Error(`${name} exited with ${run.status}: ${run.stderr.slice(0, 500)}`)
      if (i >= WARM_UPS) times[name].push(run.ms)
      if (i >= WARM_UPS && run.cpuMs !== undefined) cpu[name].push(run.cpuMs)
    }
  }
  const node = median(times.node)
  const mem = median(times.mem)
  const ratio = mem / node
  console.log(`  node -e 0:          median ${node.toFixed(0)} ms  [${times.node.map((t) => t.toFixed(0)).join(" ")}]`)
  console.log(`  mem stats --json:   median ${mem.toFixed(0)} ms  [${times.mem.map((t) => t.toFixed(0)).join(" ")}]`)
  if (cpu.mem.length === runs) {
    console.log(`  CPU (user + system, 10 ms ticks): node -e 0 median ${median(cpu.node).toFixed(0)} ms, mem ${median(cpu.mem).toFixed(0)} ms = ${(median(cpu.mem) / median(cpu.node)).toFixed(2)}x`)
  }
  const verdict = ratio < GOAL_RATIO ? "meets" : "misses"
  console.log(`median of ${runs}: mem ${mem.toFixed(0)} ms = ${ratio.toFixed(2)}x bare node (${node.toFixed(0)} ms); ${verdict} the goal of < ${GOAL_RATIO}x`)
})
