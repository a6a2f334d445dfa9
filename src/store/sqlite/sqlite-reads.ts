/**
 * The port's reads (ledger-reads.ts) on one SQLite connection. Made once per connection: each
 * read prepares its statements once and runs in whatever transaction the caller holds, which
 * is what makes a unit of reads one snapshot.
 */
import { EMPTY_LOG } from "../../events/log.js"
import type { LedgerReads } from "../ledger-reads.js"
import { captureKeyInLog } from "./capture-keys.js"
import { readChainBreak } from "./chain-break.js"
import { gatedMemories, memoryCounts, memoryPage, memoryTexts, outcomesByDay, ownersOf } from "./console-queries.js"
import type { Db } from "./database.js"
import { lastEvent, readEvents } from "./event-log.js"
import { keywordNeighbours, offeredUnasked, storeCounts, vectorNeighbours } from "./memory-queries.js"
import { forgottenOrigins, listConversations, loadConversation } from "./projections/conversations.js"
import { learnedCuesOf } from "./projections/cues.js"
import { loadEvidence, loadEvidenceOf } from "./projections/evidence.js"
import { resolveMemoryId, shortId } from "./projections/id-prefix.js"
import { findRestatement, loadMemory, rowToMemory } from "./projections/memories.js"
import { cosineBetween } from "./projections/vector-search.js"
import { recentTasks } from "./task-reads.js"
import { vectorCandidateReads, prefetchNeighbours, documentFrequency, keywordMatchesOutsideCandidates, memoriesByKey } from "./retrieval/candidates.js"
import { addVectorCandidates } from "../vector-reads.js"
import { keywordCandidates } from "./retrieval/keyword-matches.js"

const readsOf = new WeakMap<Db, LedgerReads>()

export const sqliteReads = (db: Db): LedgerReads => {
  let reads = readsOf.get(db)
  if (reads === undefined) {
    reads = makeReads(db)
    readsOf.set(db, reads)
  }
  return reads
}

const makeReads = (db: Db): LedgerReads => ({
  memory: (id) => loadMemory(db, id),
  memoriesByKey: (keys) => memoriesByKey(db, keys),
  resolveId: (typed) => resolveMemoryId(db, typed),
  shortId: (id) => shortId(db, id),
  // In the process, each id costs two index lookups: no round trip to save.
  shortIds: (ids) => new Map(ids.map((id) => [id, shortId(db, id)])),
  ownersOf: (ids) => ownersOf(db, ids),
  offeredUnasked: (project, viewer) => offeredUnasked(db, project, viewer),
  restatementOf: (contentKey, scope, project, viewer) => findRestatement(db, contentKey, scope, project, viewer),
  evidence: (id) => loadEvidence(db, id),
  evidenceOf: (ids) => loadEvidenceOf(db, ids),
  learnedCues: (ids) => learnedCuesOf(db, ids),
  conversation: (origin) => loadConversation(db, origin),
  conversations: () => listConversations(db),
  forgottenOrigins: () => forgottenOrigins(db),
  counts: (nowMs, config, viewer) => storeCounts(db, nowMs, config, viewer),
  events: (filter) => readEvents(db, filter),
  head: () => lastEvent(db) ?? EMPTY_LOG,
  captureKeyInLog: (origin, span) => captureKeyInLog(db, origin, span),
  keywordCandidates: (phrasings, scope, limit, config, nowMs, count) => keywordCandidates(db, phrasings, scope, limit, config, nowMs, count),
  prefetchNeighbours: (query, scope, limit, config) => prefetchNeighbours(db, query, scope, limit, config),
  addVectorCandidates: (found, query, scope, limit, config, nowMs) => addVectorCandidates(vectorCandidateReads(db), found, query, scope, limit, config, nowMs),
  cosineBetween: (model, a, b) => cosineBetween(db, model, a, b),
  documentFrequency: () => documentFrequency(db),
  keywordMatchesOutside: (query, scope) => keywordMatchesOutsideCandidates(db, query, scope),
  keywordNeighbours: (content, project, count, viewer) => keywordNeighbours(db, content, project, count, viewer),
  vectorNeighbours: (vector, project, count, viewer) => vectorNeighbours(db, vector, project, count, viewer),
  memoryCounts: (projects, viewer) => memoryCounts(db, projects, viewer),
  outcomesByDay: (sinceDay, viewer) => outcomesByDay(db, sinceDay, viewer),
  gatedMemories: (nowMs, config, limit, viewer) => gatedMemories(db, nowMs, config, limit, viewer),
  memoryPage: (filter) => memoryPage(db, filter).map(rowToMemory),
  memoryTexts: (ids) => memoryTexts(db, ids),
  recentTasks: (before, limit, scanLimit) => recentTasks(db, before, limit, scanLimit),
  chainBreak: () => readChainBreak(db)
})
