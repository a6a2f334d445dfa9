/**
 * The projections' tables on one SQLite connection, for the projector every store shares
 * (src/projections/projector.ts). Writes nothing reads back in the transaction (conversation
 * counts, checkpoints, the full-text index) go through `writesOn`, the connection's own
 * statements; the keyword index's are queued to the end of the transaction by the projector,
 * which keeps FTS5's batching: FTS5 writes its pending terms out as a new segment at every
 * statement savepoint, so index writes interleaved with the others made one small segment,
 * and its merges, per memory.
 */
import type { LedgerConfig } from "../../../config.js"
import { readEvents, conversationRecallsBefore } from "../event-log.js"
import type { Db } from "../database.js"
import { statement, writesOn } from "../statements.js"
import { forgottenOrigins, loadConversation, writeConversation } from "./conversations.js"
import { deleteEvidence, loadEvidence, writeEvidence } from "./evidence.js"
import { indexMemory } from "./fts.js"
import { deleteMemory, loadMemory, writeMemory } from "./memories.js"
import { setCheckpoints } from "./checkpoints.js"
import { addCounts, MADE_PRIVATE_BEFORE } from "./counts.js"
import { loadCueState, writeCueState } from "./cues.js"
import { openProjectionSession as openSession, type ProjectionSession, type ProjectionTables } from "../../../projections/projector.js"

const tablesOf = new WeakMap<Db, { readonly config: LedgerConfig; readonly tables: ProjectionTables }>()

/** `config`: the settings the projections are folded with (one store's, for each connection). */
export const sqliteProjectionTables = (db: Db, config: LedgerConfig): ProjectionTables => {
  let made = tablesOf.get(db)
  if (made?.config !== config) {
    made = { config, tables: makeTables(db, config) }
    tablesOf.set(db, made)
  }
  return made.tables
}

const makeTables = (db: Db, config: LedgerConfig): ProjectionTables => ({
  memory: (id) => loadMemory(db, id),
  writeMemory: (memory) => writeMemory(writesOn(db), memory),
  deleteMemory: (id) => deleteMemory(db, id),
  evidence: (memoryId) => loadEvidence(db, memoryId),
  writeEvidence: (evidence) => writeEvidence(db, evidence, config.halfLifeDays),
  deleteEvidence: (memoryId) => deleteEvidence(db, memoryId),
  cueState: (memoryId) => loadCueState(db, memoryId),
  writeCueState: (memoryId, state) => writeCueState(db, memoryId, state),
  conversation: (origin) => loadConversation(db, origin),
  writeConversation: (conversation) => writeConversation(writesOn(db), conversation),
  forgottenOrigins: () => forgottenOrigins(db),
  memoriesTouchedBy: (origin) => memoriesTouchedBy(db, origin),
  eventsOfMemory: (memoryId) => readEvents(db, { memoryId }),
  recallsBefore: (origin, seq, count) => conversationRecallsBefore(db, origin, seq, count),
  indexMemory: (before, after) => indexMemory(writesOn(db), before, after),
  madePrivateBefore: (memoryId, seq) => statement(db, MADE_PRIVATE_BEFORE).get(memoryId, seq) !== undefined,
  addCounts: (changes) => addCounts(writesOn(db), changes),
  setCheckpoints: (lastSeq) => setCheckpoints(writesOn(db), lastSeq)
})

export const openProjectionSession = (db: Db, config: LedgerConfig): ProjectionSession => openSession(sqliteProjectionTables(db, config), config)

const memoriesTouchedBy = (db: Db, origin: string): string[] =>
  (
    statement(
      db,
      "SELECT DISTINCT m.memory_id AS id FROM events e JOIN event_memories m ON m.seq = e.seq WHERE e.origin = ?"
    ).all(origin) as { id: string }[]
  ).map((r) => r.id)
