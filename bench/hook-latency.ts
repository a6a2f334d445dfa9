/**
 * Agent hook cost: each `mem hook EVENT` process, fed the JSON Claude Code sends, on a
 * 10,000-memory store, next to bare `node -e 0`. Two goals:
 *
 * - CPU: the median CPU time (user + system) of the hook over that of `node -e 0` at most 1.5x
 *   for post-tool-use, which runs after every shell command, and 2.5x for every other event.
 *   CPU rather than wall time because on shared cores wall time moves by a third from one
 *   minute to the next; each child's CPU comes from its rusage (support/child-times.ts).
 * - Wall: every hook finishes within 2 seconds (the hooks also stop themselves at 1.8 s,
 *   printing nothing); the worst run counts.
 *
 * Each round runs `node -e 0` then the hook, for every event in turn, so a noisy neighbour
 * hurts both sides of each ratio alike; 2 warm-up rounds, then `--runs` timed ones.
 *
 *   node bench/run.mjs hook-latency [--memories 10000] [--runs 20]
 *
 * Runs the hooks as agents do, through bin/mem.js and the built dist/ (`npm run build` first).
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { HOOK_EVENTS, type HookEvent } from "../src/hooks/hook-input.js"
import { AppLayer } from "../src/services/app.js"
import { Maintenance } from "../src/services/maintenance.js"
import { timeChild, type ChildTimes } from "./support/child-times.js"
import { generateMemories, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, median, repoRoot, withScratchDir } from "./support/measure.js"

const WALL_GOAL_MS = 2_000
const cpuGoal = (event: HookEvent): number => (event === "post-tool-use" ? 1.5 : 2.5)
const WARM_UPS = 2

const memories = intArg("memories", 10_000)
const runs = intArg("runs", 20)
const cli = join(repoRoot(), "bin", "mem.js")
// MEMLEDGER_DB and MEMLEDGER_URL are cleared so that only --db names the store.
const env = { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_URL: "" }

await withScratchDir("hook-latency", async (dir) => {
  console.log(`hook-latency: 'mem hook EVENT' on ${fmt(memories)} memories vs 'node -e 0', ${runs} runs after ${WARM_UPS} warm-ups; ${environment()}`)
  const dbFile = join(dir, "ledger.db")
  const report = await Effect.gen(function* () {
    const maintenance = yield* Maintenance
    return yield* maintenance.importJsonl(toJsonl(generateMemories(memories)), { origin: "bench:hook-latency", agent: "bench" })
  }).pipe(Effect.provide(AppLayer(dbFile)), Effect.runPromise)
  if (report.imported !== memories) throw new Error(`expected ${memories} memories, the import stored ${report.imported}`)

  const transcript = join(dir, "transcript.jsonl")
  writeFileSync(transcript, `${JSON.stringify({ type: "assistant", message: { content: [{ type: "text", text: `Using ${report.ids[0]!.slice(0, 8)}.` }] } })}\n`)
  const input = (run: number) =>
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

  const hooks: Record<string, ChildTimes[]> = Object.fromEntries(HOOK_EVENTS.map((e) => [e, []]))
  const nodes: Record<string, ChildTimes[]> = Object.fromEntries(HOOK_EVENTS.map((e) => [e, []]))
  for (let i = 0; i < WARM_UPS + runs; i++) {
    for (const event of HOOK_EVENTS) {
      const node = timeChild(process.execPath, ["-e", "0"], { env })
      const run = timeChild(process.execPath, [cli, "--db", dbFile, "hook", event], { input: input(i), env })
      if (run.status !== 0) throw new Error(`hook ${event} exited with ${run.status}: ${run.stderr.slice(0, 500)}`)
      if (event === "session-start" && !run.stdout.includes("additionalContext")) throw new Error(`session-start injected nothing (timed out?): see ${dir}/hooks.log`)
      if (i < WARM_UPS) continue
      hooks[event]!.push(run)
      nodes[event]!.push(node)
    }
  }

  console.log(`\n| hook | CPU median | node -e 0 CPU | ratio | CPU goal | wall median | wall worst | wall goal < ${fmt(WALL_GOAL_MS)} ms |`)
  console.log("| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |")
  for (const event of HOOK_EVENTS) {
    const cpu = median(hooks[event]!.map((r) => r.cpuMs))
    const nodeCpu = median(nodes[event]!.map((r) => r.cpuMs))
    const ratio = cpu / nodeCpu
    const walls = hooks[event]!.map((r) => r.wallMs)
    const worst = Math.max(...walls)
    const met = (yes: boolean) => (yes ? "met" : "missed")
    console.log(
      `| ${event} | ${cpu.toFixed(0)} ms | ${nodeCpu.toFixed(0)} ms | ${ratio.toFixed(2)}x | ≤ ${cpuGoal(event)}x ${met(ratio <= cpuGoal(event))} ` +
        `| ${median(walls).toFixed(0)} ms | ${worst.toFixed(0)} ms | ${met(worst < WALL_GOAL_MS)} |`
    )
  }
})
