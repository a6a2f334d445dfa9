/**
 * Waiting on what a test can observe, never for a fixed time: a condition looked at a bounded
 * number of times, so a test that waits for something that never comes fails saying what it
 * waited for, instead of passing by luck or hanging.
 */
import { readdirSync, readlinkSync } from "node:fs"

/** Resolves once `condition` holds; `condition` may throw to give up at once (a process gone). */
export const until = async (condition: () => boolean, what: string, { attempts = 2_000, everyMs = 10 } = {}): Promise<void> => {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (condition()) return
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  throw new Error(`gave up waiting for ${what} (looked ${attempts} times, ${everyMs} ms apart)`)
}

/** Whether process `pid` has the file `path` open (Linux: its /proc/PID/fd links). */
export const hasOpen = (pid: number, path: string): boolean => {
  const fds = `/proc/${pid}/fd`
  try {
    return readdirSync(fds).some((fd) => readlinkOrNull(`${fds}/${fd}`) === path)
  } catch {
    return false
  }
}

const readlinkOrNull = (link: string): string | null => {
  try {
    return readlinkSync(link)
  } catch {
    return null
  }
}

/**
 * Resolves once the `mem` process has the store `db` open with its WAL index: it has begun
 * reading the store, so (when another process holds the write lock) its write is about to wait.
 */
export const untilStoreOpen = (run: { readonly pid: number; readonly ended: () => boolean }, db: string): Promise<void> =>
  until(() => {
    if (run.ended()) throw new Error(`mem (pid ${run.pid}) ended before it opened ${db}`)
    return hasOpen(run.pid, `${db}-shm`)
  }, `mem (pid ${run.pid}) to open ${db}`)
