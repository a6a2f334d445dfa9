/**
 * The port's reads (ledger-reads.ts) on one PostgreSQL connection, in whatever transaction the
 * caller holds: a unit of reads is one snapshot. The vector reads are the ones every store
 * shares (store/vector-reads.ts) over pgvector's tables (vector-tables.ts); in a database
 * without pgvector (`vectors` false) they find nothing, and a search there is a keyword search.
 * `memo` answers what a read-only transaction has read already (read-memo.ts).
 */
import { EMPTY_LOG } from "../../events/log.js"
import type { LedgerReads } from "../ledger-reads.js"
import { documentFrequency, keywordCandidates, keywordMatchesOutside, keywordNeighbours, vectorCandidateReads } from "./candidates.js"
import { captureKeyInLog, lastEvent, readEvents } from "./event-log.js"
import {
  findRestatement,
  gatedMemories,
  liveByKeys,
  memoriesByKey,
  memoryCounts,
  memoryPage,
  memoryTexts,
  ownersOf,
  offeredUnasked,
  outcomesByDay,
  readChainBreak,
  recentTasks,
  resolveMemoryId,
  shortId,
  shortIds,
  storeCounts
} from "./memory-reads.js"
import { forgottenOrigins, learnedCuesOf, listConversations, loadConversation, loadEvidence, loadEvidenceOf, loadMemory } from "./projections.js"
import type { ReadMemo } from "./read-memo.js"
import { memoriesWithExtras } from "./result-rows.js"
import type { SyncPg } from "./sync-client.js"
import { cosineBetween, pgVectorSearch } from "./vector-tables.js"
import { addVectorCandidates, vectorNeighbours } from "../vector-reads.js"

export const pgReads = (db: SyncPg, vectors: boolean, memo: ReadMemo): LedgerReads => ({
  memory: (id) => loadMemory(db, id),
  // In a read-only transaction, with what a search reads of its results next (result-rows.ts).
  memoriesByKey: (keys) => (memo.keeping ? memoriesWithExtras(db, memo, keys) : memoriesByKey(db, keys)),
  resolveId: (typed) => resolveMemoryId(db, typed),
  shortId: (id) => shortId(db, id),
  shortIds: (ids) => memo.shortIdsOf(ids) ?? shortIds(db, ids),
  ownersOf: (ids) => ownersOf(db, ids),
  offeredUnasked: (project, viewer) => offeredUnasked(db, project, viewer),
  restatementOf: (contentKey, scope, project, viewer) => findRestatement(db, contentKey, scope, project, viewer),
  evidence: (id) => loadEvidence(db, id),
  evidenceOf: (ids) => loadEvidenceOf(db, ids),
  learnedCues: (ids) => memo.learnedOf(ids) ?? learnedCuesOf(db, ids),
  conversation: (origin) => loadConversation(db, origin),
  conversations: () => listConversations(db),
  forgottenOrigins: () => forgottenOrigins(db),
  counts: (nowMs, config, viewer) => storeCounts(db, nowMs, config, viewer),
  events: (filter) => readEvents(db, filter),
  head: () => lastEvent(db) ?? EMPTY_LOG,
  captureKeyInLog: (origin, span) => captureKeyInLog(db, origin, span),
  keywordCandidates: (phrasings, scope, limit, config, nowMs, count) => keywordCandidates(db, memo, phrasings, scope, limit, config, nowMs, count),
  // Its nearest-neighbour search is the server's: nothing to start early on this thread.
  prefetchNeighbours: () => undefined,
  addVectorCandidates: (found, query, scope, limit, config, nowMs) =>
    vectors ? addVectorCandidates(vectorCandidateReads(db), found, query, scope, limit, config, nowMs) : found,
  cosineBetween: (model, keyA, keyB) => (vectors ? cosineBetween(db, model, keyA, keyB) : undefined),
  documentFrequency: () => documentFrequency(db, memo),
  keywordMatchesOutside: (query, scope) => keywordMatchesOutside(db, query, scope),
  keywordNeighbours: (content, project, count, viewer) => keywordNeighbours(db, content, project, count, viewer),
  vectorNeighbours: (vector, project, count, viewer) =>
    vectors ? vectorNeighbours(pgVectorSearch(db), (keys, p, v) => liveByKeys(db, keys, p, v), vector, project, count, viewer) : [],
  memoryCounts: (projects, viewer) => memoryCounts(db, projects, viewer),
  outcomesByDay: (sinceDay, viewer) => outcomesByDay(db, sinceDay, viewer),
  gatedMemories: (nowMs, config, limit, viewer) => gatedMemories(db, nowMs, config, limit, viewer),
  memoryPage: (filter) => memoryPage(db, filter),
  memoryTexts: (ids) => memoryTexts(db, ids),
  recentTasks: (before, limit, scanLimit) => recentTasks(db, before, limit, scanLimit),
  chainBreak: () => readChainBreak(db)
})
