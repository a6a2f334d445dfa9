/**
 * The tasks the log names (the `task` of recalls and outcomes), most recently named first, read
 * backwards from the log's head in bounded steps: a page reads at most `scanLimit` events,
 * whatever the log's size, and says where the next page goes on.
 */
import type { RecentTasks } from "../console-reads.js"
import type { Db } from "./database.js"
import { statement } from "./statements.js"


const STEP = 2000

export const recentTasks = (db: Db, before: number | undefined, limit: number, scanLimit: number): RecentTasks => {
  const rows = statement(
    db,
    `SELECT seq, json_extract(CASE WHEN json_valid(payload) THEN payload END, '$.task') AS task FROM events
     WHERE seq < ? AND type IN ('MemoriesRecalled', 'OutcomeRecorded') ORDER BY seq DESC LIMIT ?`
  )
  const seen = new Map<string, number>()
  let cursor = before ?? Number.MAX_SAFE_INTEGER
  let scanned = 0
  while (seen.size < limit && scanned < scanLimit) {
    const batch = rows.all(cursor, STEP) as Array<{ seq: number; task: string | null }>
    for (const row of batch) {
      cursor = row.seq
      if (row.task !== null && !seen.has(row.task)) {
        seen.set(row.task, row.seq)
        if (seen.size === limit) break
      }
    }
    scanned += STEP
    if (batch.length < STEP) return { tasks: listed(seen), next: seen.size === limit ? cursor : null }
  }
  return { tasks: listed(seen), next: cursor }
}

const listed = (seen: Map<string, number>) => [...seen].map(([task, lastSeq]) => ({ task, lastSeq }))
