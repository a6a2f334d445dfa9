/**
 * The tasks the log names (the `task` of recalls and outcomes), most recently named first, read
 * backwards from the log's head in bounded steps: a page reads at most `scanLimit` events,
 * whatever the log's size, and says where the next page goes on.
 */
import type { RecentTasks } from "../console-reads.js"
import type { Db } from "./database.js"
import { statement } from "./statements.js"
import { scanTasks } from "../read-folds.js"

export const recentTasks = (db: Db, before: number | undefined, limit: number, scanLimit: number): RecentTasks => {
  const rows = statement(
    db,
    `SELECT seq, json_extract(CASE WHEN json_valid(payload) THEN payload END, '$.task') AS task FROM events
     WHERE seq < ? AND type IN ('MemoriesRecalled', 'OutcomeRecorded') ORDER BY seq DESC LIMIT ?`
  )
  return scanTasks((cursor, step) => rows.all(cursor, step) as Array<{ seq: number; task: string | null }>, before, limit, scanLimit)
}
