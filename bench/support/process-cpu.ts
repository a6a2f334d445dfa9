/**
 * CPU seconds (user + system) that processes of this machine have used so far, read from
 * /proc: a server's share of the work, which the bench's own clock cannot see. Linux only.
 */
import { readFileSync } from "node:fs"

const TICKS_PER_SECOND = 100

export const cpuSecondsOf = (pids: ReadonlyArray<number>): number => {
  let ticks = 0
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // After the command's closing parenthesis, utime and stime are the 12th and 13th fields.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    ticks += Number(fields[11]) + Number(fields[12])
  }
  return ticks / TICKS_PER_SECOND
}
