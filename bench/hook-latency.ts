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
 * Twice: with no MCP server, each hook in its own process; then with `mem mcp` running on the
 * store, as it does beside an agent's session, to which the hooks that use the store hand
 * their run. That server's CPU is counted apart (from /proc, over all its hooks): it is work
 * moved, not removed, though far less of it than a hook that loads and opens the store itself.
 *
 *   node bench/run.mjs hook-latency [--memories 10000] [--runs 20]
 *   BENCH_HOOK_NODE_FLAGS="--cpu-prof --cpu-prof-dir=bench/.data/prof" node bench/run.mjs hook-latency --runs 3
 *
 * Runs the hooks as agents do, through bin/mem.js and the built dist/ (`npm run build` first).
 */
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { Effect } from "effect"
import { HOOK_EVENTS, type HookEvent } from "../src/hooks/hook-input.js"
import { AppLayer } from "../src/services/app.js"
import { Maintenance } from "../src/services/maintenance.js"
import { timeChild, type ChildTimes } from "./support/child-times.js"
import { cpuSecondsOf } from "./support/process-cpu.js"
import { generateMemories, toJsonl } from "./support/corpus.js"
import { environment, fmt, intArg, median, repoRoot, withScratchDir } from "./support/measure.js"

const WALL_GOAL_MS = 2_000
const cpuGoal = (event: HookEvent): number => (event === "post-tool-use" ? 1.5 : 2.5)
const WARM_UPS = 2

const memories = intArg("memories", 10_000)
const runs = intArg("runs", 20)
const cli = join(repoRoot(), "bin", "mem.js")
// MEMLEDGER_DB and MEMLEDGER_URL are cleared so that only --db names the store.
const baseEnv = { ...process.env, MEMLEDGER_DB: "", MEMLEDGER_URL: "" }
// Node flags for the hook processes alone (a profiler, say); the ratios are then not the goal's.
const hookFlags = (process.env.BENCH_HOOK_NODE_FLAGS ?? "").split(" ").filter((flag) => flag !== "")

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

  // The hooks' state folder (and the MCP server's socket) in the scratch folder, not the user's.
  const env = { ...baseEnv, MEMLEDGER_STATE_DIR: join(dir, "state") }
  const runHooks = (label: string, serverCpuMs?: () => number) => {
    const hooks: Record<string, ChildTimes[]> = Object.fromEntries(HOOK_EVENTS.map((e) => [e, []]))
    const nodes: Record<string, ChildTimes[]> = Object.fromEntries(HOOK_EVENTS.map((e) => [e, []]))
    const serverMs: Record<string, number> = Object.fromEntries(HOOK_EVENTS.map((e) => [e, 0]))
    for (let i = 0; i < WARM_UPS + runs; i++) {
      for (const event of HOOK_EVENTS) {
        const node = timeChild(process.execPath, ["-e", "0"], { env })
        const before = serverCpuMs?.() ?? 0
        const run = timeChild(process.execPath, [...hookFlags, cli, "--db", dbFile, "hook", event], { input: input(i), env })
        if (run.status !== 0) throw new Error(`hook ${event} exited with ${run.status}: ${run.stderr.slice(0, 500)}`)
        if (event === "session-start" && !run.stdout.includes("additionalContext")) throw new Error(`session-start injected nothing (timed out?): see ${dir}/state`)
        if (i < WARM_UPS) continue
        serverMs[event] = serverMs[event]! + (serverCpuMs?.() ?? 0) - before
        hooks[event]!.push(run)
        nodes[event]!.push(node)
      }
    }
    console.log(`\n${label}\n`)
    const serverColumn = serverCpuMs === undefined ? "" : " MCP server CPU a hook (mean) |"
    console.log(`| hook | CPU median | node -e 0 CPU | ratio | CPU goal | wall median | wall worst | wall goal < ${fmt(WALL_GOAL_MS)} ms |${serverColumn}`)
    console.log(`| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |${serverCpuMs === undefined ? "" : " ---: |"}`)
    for (const event of HOOK_EVENTS) {
      const cpu = median(hooks[event]!.map((r) => r.cpuMs))
      const nodeCpu = median(nodes[event]!.map((r) => r.cpuMs))
      const ratio = cpu / nodeCpu
      const walls = hooks[event]!.map((r) => r.wallMs)
      const worst = Math.max(...walls)
      const met = (yes: boolean) => (yes ? "met" : "missed")
      const server = serverCpuMs === undefined ? "" : ` ${(serverMs[event]! / runs).toFixed(0)} ms |`
      console.log(
        `| ${event} | ${cpu.toFixed(0)} ms | ${nodeCpu.toFixed(0)} ms | ${ratio.toFixed(2)}x | ≤ ${cpuGoal(event)}x ${met(ratio <= cpuGoal(event))} ` +
          `| ${median(walls).toFixed(0)} ms | ${worst.toFixed(0)} ms | ${met(worst < WALL_GOAL_MS)} |${server}`
      )
    }
  }

  runHooks("Each hook in its own process (no MCP server runs on the store):")
  const server = await startMcpServer(dbFile, env)
  try {
    runHooks("With `mem mcp` running on the store: the hooks that use it are handed to the server.", server.cpuMs)
  } finally {
    await server.stop()
  }
})

/**
 * `mem mcp` on the store, as an agent starts it, answered once (an MCP initialize): by then it
 * listens for the store's hooks. `cpuMs` is its user and system time so far, from /proc.
 */
async function startMcpServer(dbFile: string, env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [cli, "--db", dbFile, "mcp"], { env, stdio: ["pipe", "pipe", "inherit"] })
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }
  child.stdin.write(`${JSON.stringify(initialize)}\n`)
  await new Promise<void>((resolve, reject) => {
    child.stdout.once("data", () => resolve())
    child.once("exit", (code) => reject(new Error(`mem mcp exited with ${code} before it answered`)))
  })
  const cpuMs = (): number => cpuSecondsOf([child.pid!]) * 1000
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve())
      child.stdin.end()
    })
  return { cpuMs, stop }
}
