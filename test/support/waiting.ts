/**
 * Waiting on what a test can observe, never for a fixed time: a condition looked at a bounded
 * number of times, so a test that waits for something that never comes fails saying what it
 * waited for, instead of passing by luck or hanging.
 */
import { readFileSync } from "node:fs"

/** Resolves once `condition` holds; `condition` may throw to give up at once (a process gone). */
export const until = async (condition: () => boolean, what: string, { attempts = 2_000, everyMs = 10 } = {}): Promise<void> => {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  throw new Error(`gave up waiting for ${what} (looked ${attempts} times, ${everyMs} ms apart)`)
}

/**
 * Resolves once the `mem` process is waiting for the store's write lock: its main thread asleep
 * in SQLite's busy handler (Linux: /proc/PID/wchan names a nanosleep). Nothing else in mem sleeps
 * so: node waits for events in epoll, and for its threads on a futex.
 */
export const untilWaitingForLock = (run: { readonly pid: number; readonly ended: () => boolean }): Promise<void> =>
  until(() => {
    if (run.ended()) throw new Error(`mem (pid ${run.pid}) ended before it waited for the write lock`)
    return /nanosleep/.test(readOrEmpty(`/proc/${run.pid}/wchan`))
  }, `mem (pid ${run.pid}) to wait for the write lock`)

const readOrEmpty = (path: string): string => {
  try {
    return readFileSync(path, "utf8")
  } catch {
    return ""
  }
}
