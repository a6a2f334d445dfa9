/**
 * Agent hook latency: wall time of each `mem hook EVENT` process, fed the JSON Claude Code
 * sends, on a 10,000-memory store. Goal: every hook finishes within 2 seconds (the
 * hooks also stop themselves at 1.8 s, printing nothing). Events run in turn, 2 warm-ups then
 * `--runs` timed runs each, interleaved so a noisy neighbour hurts all alike; medians and the
 * worst run count.
 *
 *   node bench/run.mjs hook-latency [--memories 10000] [--runs 10]
 *
 * Runs the hooks as agents do, through bin/mem.js and the built dist/ (`npm run build` first).
 */
import { spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { Effect } from "effect"
import { AppLayer } from "../src/services/app.js"
import { Maintenance } from "../src/services/maintenance.js"
import { generateMemories, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, median, repoRoot, withScratchDir } from "./support/measure.js"

const GOAL_MS = 2_000
const WARM_UPS = 2
const EVENTS = ["session-start", "user-prompt-submit", "post-tool-use", "stop"] as const

const memories = intArg("memories", 10_000)
const runs = intArg("runs", 10)
const cli = join(repoRoot(), "bin", "mem.js")

await withScratchDir("hook-latency", async (dir) => {
  console.log(`hook-latency: 'mem hook EVENT' on ${fmt(memories)} memories, ${runs} runs after ${WARM_UPS} warm-ups; ${environment()}`)
  const dbFile = join(dir, "ledger.db")
  const report = await Effect.gen(function* () {
    const maintenance = yield* Maintenance
    return yield* maintenance.importJsonl(toJsonl(generateMemories(memories)), { origin: "bench:hook-latency", agent: "bench" })
  }).pipe(Effect.provide(AppLayer(dbFile)), Effect.runPromise)
  if (report.imported !== memories) throw new Error(`expected ${memories} memories, the import stored ${report.imported}`)

  const transcript = join(dir, "transcript.jsonl")
  writeFileSync(transcript, `${JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: `Using ${report.ids[0]!.slice(0, 8)}.` }] } })}\n`)
  const input = (event: string, run: number) =>
    JSON.stringify({
      session_id: `bench-${run}`,
      cwd: dir,
      transcript_path: transcript,
      source: "startup",
      prompt: "the integration tests fail with a timeout on CI after the last upgrade",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: { stdout: "Tests 41 passed (41)\n41 passed, 0 failed\n", stderr: "" }
    })

  const times: Record<string, number[]> = Object.fromEntries(EVENTS.map((e) => [e, []]))
  for (let i = 0; i < WARM_UPS + runs; i++) {
    for (const event of EVENTS) {
      const started = performance.now()
      const run = spawnSync(process.execPath, [cli, "--db", dbFile, "hook", event], { input: input(event, i), encoding: "utf8", env: { ...process.env, MEMLEDGER_DB: "" } })
      const ms = performance.now() - started
      if (run.status !== 0) throw new Error(`hook ${event} exited with ${run.status}: ${run.stderr.slice(0, 500)}`)
      if (event === "session-start" && !run.stdout.includes("additionalContext")) throw new Error(`session-start injected nothing (timed out?): see ${dir}/hooks.log`)
      if (i >= WARM_UPS) times[event]!.push(ms)
    }
  }
  console.log(`\n| hook | median | worst | goal < ${fmt(GOAL_MS)} ms |\n| --- | ---: | ---: | --- |`)
  for (const event of EVENTS) {
    const all = times[event]!
    const worst = Math.max(...all)
    console.log(`| ${event} | ${median(all).toFixed(0)} ms | ${worst.toFixed(0)} ms | ${worst < GOAL_MS ? "met" : "missed"} |`)
  }
})
