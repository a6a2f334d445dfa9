/**
 * Creates the log and the projections in a new file, and rebuilds any projection whose
 * version differs from the code's (or whose checkpoint lags the log), so an upgrade never
 * needs a migration of derived data.
 */
import type { LedgerConfig } from "../../config.js"
import { createLog, lastEvent } from "./event-log.js"
import { createCheckpoints, readCheckpoints } from "./projections/checkpoints.js"
import { createContentChanges } from "./projections/content-changes.js"
import { rebuildProjections } from "./projections/rebuild.js"
import { PROJECTIONS, versionOf } from "./projections/registry.js"
import { createChainBreak } from "./chain-break.js"
import { createTokens } from "./tokens.js"
import { APPLICATION_ID, type Db } from "./database.js"

/**
 * Bumped when the log's own tables change shape (3: the `events_task` index; 4: `chain_break`;
 * 5: the events' `author`; 6: `tokens`, people's tokens for `mem serve`; 7: `events_recorded_at`,
 * by which a past moment's events are found, time-travel.ts; 8: `change_marks`, content-changes.ts;
 * 9: `events_conversation_controls`, event-log.ts).
 */
export const LOG_SCHEMA_VERSION = 9

/** True when the file needs no setup, checked without taking the write lock. */
export const isReady = (db: Db, config: LedgerConfig): boolean => {
  if (db.pragma("user_version", { simple: true }) !== LOG_SCHEMA_VERSION) return false
  return projectionsCurrent(db, config)
}

/** Runs under the write lock; cheap when there is nothing to do. */
export const prepareSchema = (db: Db, config: LedgerConfig): void => {
  db.pragma(`application_id = ${APPLICATION_ID}`)
  createLog(db)
  createChainBreak(db)
  createCheckpoints(db)
  createContentChanges(db)
  createTokens(db)
  db.pragma(`user_version = ${LOG_SCHEMA_VERSION}`)
  if (!projectionsCurrent(db, config)) rebuildProjections(db, config)
}

const projectionsCurrent = (db: Db, config: LedgerConfig): boolean => {
  const checkpoints = new Map(readCheckpoints(db).map((c) => [c.name, c]))
  const head = lastEvent(db)?.seq ?? 0
  return PROJECTIONS.every((p) => {
    const c = checkpoints.get(p.name)
    return c !== undefined && c.version === versionOf(p, config) && c.lastSeq === head
  })
}
