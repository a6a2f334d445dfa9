/**
 * Empties every projection and folds the log into it again (log-fold.ts, as SQLite's rebuild
 * does), then writes the rows: each memory with its keyword index, evidence, conversations,
 * learned cues, and the checkpoint naming the version the projections were built at. Tables
 * are dropped and made again only when their shape changed (PG_SCHEMA_VERSION).
 */
import type { LedgerConfig } from "../../config.js"
import type { MemoryId } from "../../domain/ids.js"
import { decodePayload } from "../../events/codec.js"
import { finalForgottenOrigins, foldLog, privateMemories, type LogOutline } from "../../projections/log-fold.js"
import type { Progress } from "../store-maintenance.js"
import { lastEvent, readEvents } from "./event-log.js"
import { addCounts, conversationRow, evidenceRow, insertRows, memoryDocumentOf, memoryRow, pgProjectionTables } from "./projections.js"
import { indexDocuments } from "./keyword-index.js"
import { CLEAR_PROJECTIONS, DROP_PROJECTIONS, metaValue, PROJECTION_DDL, PG_SCHEMA_VERSION, setMeta } from "./schema.js"
import type { SyncPg } from "./sync-client.js"

/** The version the projections are built at: the tables' shape and every setting a fold reads. */
export const projectionsVersion = (config: LedgerConfig): string =>
  `${PG_SCHEMA_VERSION}/half-life=${config.halfLifeDays}d/contradiction=${config.contradictionDiscount}/failure=${config.failureWeight}` +
  `/cap=${config.maxLearnedCues}/window=${config.cueWindowRecalls},${config.cueWindowMs}ms`

/**
 * Runs in the caller's write transaction. `temporary` makes the projections temporary tables,
 * which shadow the real ones until the transaction ends (time-travel.ts).
 */
export const rebuildProjections = (db: SyncPg, config: LedgerConfig, onProgress?: Progress, temporary = false): { events: number } => {
  const total = lastEvent(db)?.seq ?? 0
  const progress = onProgress && ((seq: number) => void (seq % 50_000 === 0 && onProgress(seq * 0.8, total)))
  const folded = foldLog(readEvents(db), logOutline(db), config, progress)
  // Temporary projections are new: emptying or dropping by name would reach the real ones. Real
  // ones are emptied rather than dropped, so that readers on other connections see them whole
  // throughout (CLEAR_PROJECTIONS).
  if (temporary) db.execute(PROJECTION_DDL.replace(/CREATE TABLE /g, "CREATE TEMP TABLE "))
  else if (metaValue(db, "schema") === PG_SCHEMA_VERSION) db.execute(CLEAR_PROJECTIONS)
  else db.execute(DROP_PROJECTIONS + PROJECTION_DDL)
  const tables = pgProjectionTables(db, config)
  const memories = [...folded.memories.values()]
  insertRows(db, "memories", memories.map(memoryRow))
  indexDocuments(db, "memories", memories.map(memoryDocumentOf))
  db.run("UPDATE content_changes SET n = n + 1 WHERE id = 1")
  insertRows(db, "evidence", [...folded.evidence.values()].map((e) => evidenceRow(e, config.halfLifeDays)))
  insertRows(db, "conversations", [...folded.conversations.values()].map(conversationRow))
  addCounts(db, folded.counts)
  for (const [memoryId, c] of folded.cues) if (folded.memories.has(memoryId)) tables.writeCueState(memoryId as MemoryId, c)
  writeCheckpoint(db, config, folded.lastSeq)
  // Fresh statistics, so the planner reads the new tables by their indexes from the first search.
  if (!temporary) db.run("ANALYZE memories, keyword_terms, keyword_df, learned_cues, evidence, memory_counts, outcome_days, private_outcomes")
  db.flush()
  onProgress?.(total, total)
  return { events: folded.events }
}

export const writeCheckpoint = (db: SyncPg, config: LedgerConfig, lastSeq: number): void => {
  db.run(
    "INSERT INTO projection_checkpoints (name, version, last_seq) VALUES ('projections', $1, $2) ON CONFLICT (name) DO UPDATE SET version = excluded.version, last_seq = excluded.last_seq",
    [projectionsVersion(config), lastSeq]
  )
  setMeta(db, "schema", PG_SCHEMA_VERSION)
}

/** Whether the projections were built at this version and hold every event of the log. */
export const projectionsCurrent = (db: SyncPg, config: LedgerConfig): boolean => {
  const checkpoint = db.one<{ version: string; last_seq: number }>("SELECT version, last_seq FROM projection_checkpoints WHERE name = 'projections'")
  return checkpoint !== undefined && checkpoint.version === projectionsVersion(config) && checkpoint.last_seq === (lastEvent(db)?.seq ?? 0)
}

/** What a fold of this database's log is told first (log-fold.ts `LogOutline`), from the few events that decide it. */
export const logOutline = (db: SyncPg): LogOutline => ({ hidden: forgottenAtEnd(db), madePrivate: madePrivateIn(db) })

/** The memories some event makes private; SQL finds the few candidates, the shared rule decides. */
const madePrivateIn = (db: SyncPg): Set<string> =>
  privateMemories(
    db
      .query<{ type: string; version: number; payload: string; author: string }>(
        `SELECT type, version, payload, author FROM events WHERE type IN ('MemoryAdded', 'MemoryRevised') AND author IS NOT NULL
           AND payload IS NOT NULL AND payload::jsonb ->> 'visibility' = 'private'`
      )
      .map((row) => ({ event: decodePayload(row.type, row.version, row.payload), author: row.author }))
  )

const forgottenAtEnd = (db: SyncPg): Set<string> =>
  finalForgottenOrigins(
    db
      .query<{ type: string; version: number; payload: string | null }>(
        "SELECT type, version, payload FROM events WHERE type IN ('ConversationForgotten', 'ConversationRestored') ORDER BY seq"
      )
      .flatMap((row) =>
        row.payload === null ? [] : [{ type: row.type, origin: (decodePayload(row.type, row.version, row.payload) as { origin: string }).origin }]
      )
  )

/**
 * After a rebuild has committed (VACUUM runs outside a transaction): until a table is vacuumed,
 * its new pages are not marked all-visible, and every index-only read of the keyword index also
 * visits the table. Searches after a rebuild cost half as much again until autovacuum came
 * round; this vacuums the tables searches read at once.
 */
export const vacuumRebuilt = (db: SyncPg): void => {
  db.execute("VACUUM (ANALYZE) keyword_terms, keyword_df, memories, evidence, learned_cues")
}

