/**
 * The store as it was 30 days before its last event (what `why --at` reads), made both ways on
 * one store file, one after the other: replayed into memory (every event copied, numbered and
 * chained anew; what a moment whose events are not the log's first ones still takes) and folded
 * from the file in place (time-travel.ts `foldedPrefix`). Each with its wall time and the
 * process's CPU time, which a busy machine inflates less; and the size of the past store a
 * server keeps. `advance` folds the store as of DAYS (1) more days before instead, then moves it on
 * (`advancePrefix`, what a server does when asked about a later moment), and prints the CPU of
 * an event moved on against that of an event folded.
 *
 *   npm run build && node bench/run.mjs past-store FILE [replay|fold|both|advance [DAYS]]
 *
 * FILE is a store such as `console-api --store FILE` builds (100,000 memories, 1,000,000 events).
 */
import { Either } from "effect"
import { performance } from "node:perf_hooks"
import { DEFAULT_CONFIG } from "../src/config.js"
import { LedgerStore } from "../src/store/sqlite/ledger-store.js"
import { advancePrefix, foldedPrefix, momentOf, replayUntil } from "../src/store/sqlite/time-travel.js"
import { environment } from "./support/measure.js"

const [file, which = "both", days = "1"] = process.argv.slice(2)
if (file === undefined) throw new Error("usage: node bench/run.mjs past-store FILE [replay|fold|both|advance]")
const store = Either.getOrThrow(LedgerStore.open(file, DEFAULT_CONFIG))
const last = store.db.prepare("SELECT recorded_at FROM events ORDER BY seq DESC LIMIT 1").get() as { recorded_at: string }
const until = new Date(Date.parse(last.recorded_at) - 30 * 86_400_000).toISOString()

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1e6
}

const timed = (name: string, make: () => LedgerStore, keep = false) => {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const past = make()
  const used = cpuSeconds(cpu)
  const memories = (past.db.prepare("SELECT count(*) AS n FROM memories").get() as { n: number }).n
  const bytes = (past.db.pragma("page_count", { simple: true }) as number) * (past.db.pragma("page_size", { simple: true }) as number)
  console.log(
    `  ${name.padEnd(14)} wall ${((performance.now() - started) / 1000).toFixed(1)} s, cpu ${used.toFixed(1)} s; ` +
      `${memories} memories, ${(bytes / 1e6).toFixed(0)} MB of pages`
  )
  if (!keep) past.close()
  return { past, cpu: used }
}

console.log(`past-store: ${file} as of ${until}; ${environment()}`)
const started = performance.now()
const moment = store.read((db) => momentOf(db, until))
console.log(`  moment         ${JSON.stringify(moment)} in ${(performance.now() - started).toFixed(1)} ms`)
if (which === "replay" || which === "both") timed("replay", () => replayUntil(store, until))
if (which !== "replay" && which !== "advance" && moment.end !== undefined) timed("fold in place", () => foldedPrefix(store, moment.end!))
if (which === "advance" && moment.end !== undefined) {
  const dayBefore = store.read((db) => momentOf(db, new Date(Date.parse(until) - Number(days) * 86_400_000).toISOString())).end!
  const { past, cpu: foldCpu } = timed(`fold ${days} d before`, () => foldedPrefix(store, dayBefore), true)
  const cpu = process.cpuUsage()
  advancePrefix(past, store.config, dayBefore, moment.end)
  const moved = cpuSeconds(cpu)
  const events = moment.end - dayBefore
  console.log(
    `  advance        ${events} events in cpu ${moved.toFixed(2)} s: ${((moved / events) * 1e6).toFixed(0)} µs an event moved on, ` +
      `${((foldCpu / dayBefore) * 1e6).toFixed(0)} µs an event folded`
  )
  past.close()
}
store.close()
