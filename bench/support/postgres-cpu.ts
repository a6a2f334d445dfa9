/**
 * CPU seconds (user + system) used by the PostgreSQL backends serving one database, read from
 * /proc: on a busy machine a statement's wall time says more about the neighbours than about
 * the statement. Only for a server on this machine.
 */
import { readFileSync } from "node:fs"
import pg from "pg"

const TICKS_PER_SECOND = 100

/** The backends connected to the database at `url` now, but for the one asking. */
export const backendsOf = async (url: string): Promise<number[]> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()")
    return rows.map((r) => r.pid)
  } finally {
    await client.end()
  }
}

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
