/**
 * Wall and CPU time of one child process, to the millisecond. Node's spawnSync reports neither
 * the child's user nor its system time, and /proc/self/stat counts children in 10 ms ticks, too
 * coarse for a process that spends 50 ms of CPU. So the child runs under bash's `time` keyword,
 * which takes the child's rusage from wait4 (its whole thread group: V8's and libuv's threads
 * too) and prints real, user and system seconds with three decimals. The report goes to a
 * fourth pipe, so the child's own stdout and stderr reach the caller untouched; bash's own
 * start is outside what `time` counts.
 */
import { spawnSync } from "node:child_process"

export interface ChildTimes {
  readonly wallMs: number
  /** User plus system CPU time of the child. */
  readonly cpuMs: number
  readonly status: number | null
  readonly stdout: string
  readonly stderr: string
}

// Inside the braces fd 2 is the report pipe (fd 3), where `time` writes; the command gets the
// original stderr (fd 4) back and neither extra descriptor, so nothing it leaves running holds
// the report pipe open.
const TIMED = 'TIMEFORMAT="%3R %3U %3S"; { time "$@" 2>&4 3>&- 4>&-; } 4>&2 2>&3'

export const timeChild = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly input?: string; readonly env?: NodeJS.ProcessEnv } = {}
): ChildTimes => {
  const run = spawnSync("bash", ["-c", TIMED, "bash", command, ...args], {
    input: options.input ?? "",
    env: options.env ?? process.env,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe", "pipe"]
  })
  if (run.error !== undefined) throw new Error(`cannot run bash to time ${command}: ${run.error.message}`)
  const report = String(run.output[3] ?? "").trim().split("\n").pop() ?? ""
  const [real, user, system] = report.split(" ").map(Number)
  if (![real, user, system].every((n) => n !== undefined && Number.isFinite(n))) {
    throw new Error(`bash's time printed no times for ${command}: ${JSON.stringify(report)}`)
  }
  return { wallMs: real! * 1000, cpuMs: (user! + system!) * 1000, status: run.status, stdout: run.stdout, stderr: run.stderr }
}
