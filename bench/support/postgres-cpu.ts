/**
 * The PostgreSQL backends serving one database, whose CPU (process-cpu.ts) says more about a
 * statement than its wall time on a busy machine. Only for a server on this machine.
 */
import pg from "pg"

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
