/**
 * Rebuild: a 1,000,000-event log (200,000 MemoryAdded and 800,000 OutcomeRecorded across
 * them, from a dozen origins, over two simulated years), then `Maintenance.rebuild` (what
 * `mem rebuild` runs) timed on it. Goal: under 60 s. The log is built once, through
 * the ordinary append path (LedgerStore.writeOrThrow, large transactions); the rebuild runs
 * three times on it and the median counts.
 *
 *   node bench/run.mjs rebuild [--memories 200000] [--outcomes 800000] [--runs 3]
 */
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import { AppLayer } from "../src/services/app.js"
import { Maintenance } from "../src/services/maintenance.js"
import { fileSize } from "../src/store/sqlite/database.js"
import { buildLog } from "./support/log-builder.js"
import { cpuSeconds, environment, fmt, intArg, median, mib, withScratchDir } from "./support/measure.js"

const GOAL_SECONDS = 60
const memories = intArg("memories", 200_000)
const outcomes = intArg("outcomes", 800_000)
const runs = intArg("runs", 3)
const total = memories + outcomes

const rebuildOnce = (dbFile: string) =>
  Effect.gen(function* () {
    const maintenance = yield* Maintenance
    const cpu = process.cpuUsage()
    const started = performance.now()
    const { events } = yield* maintenance.rebuild()
    return { events, seconds: (performance.now() - started) / 1000, cpu: cpuSeconds(cpu) }
  }).pipe(Effect.provide(AppLayer(dbFile)), Effect.runPromise)

await withScratchDir("rebuild", async (dir) => {
  console.log(`rebuild: ${fmt(memories)} MemoryAdded + ${fmt(outcomes)} OutcomeRecorded, ${runs} runs; ${environment()}`)
  const dbFile = join(dir, "ledger.db")
  const cpu = process.cpuUsage()
  const building = performance.now()
  const events = buildLog(dbFile, memories, outcomes, (n) => process.stdout.write(`\r  building the log: ${fmt(n)} / ${fmt(total)} events`))
  process.stdout.write("\n")
  const buildSeconds = (performance.now() - building) / 1000
  console.log(
    `  log built through tx.append: ${fmt(events)} events in ${buildSeconds.toFixed(1)} s (${fmt(events / buildSeconds)} events/s incl. projections, ${cpuSeconds(cpu).toFixed(1)} s cpu), db ${mib(fileSize(dbFile))}`
  )

  const results: { events: number; seconds: number; cpu: number }[] = []
  for (let i = 0; i < runs; i++) {
    const run = await rebuildOnce(dbFile)
    if (run.events !== events) throw new Error(`rebuild read ${run.events} events, the log holds ${events}`)
    results.push(run)
    console.log(`  run ${i + 1}: ${run.seconds.toFixed(1)} s, ${fmt(run.events / run.seconds)} events/s (${run.cpu.toFixed(1)} s cpu)`)
  }
  const seconds = median(results.map((r) => r.seconds))
  const verdict = seconds < GOAL_SECONDS ? "meets" : "misses"
  console.log(`median of ${runs}: ${fmt(events)} events in ${seconds.toFixed(1)} s, ${fmt(events / seconds)} events/s; ${verdict} the goal of < ${GOAL_SECONDS} s`)
})
