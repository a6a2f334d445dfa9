/**
 * The projections' rows as an SQL store keeps them (one column per field, lists as JSON text,
 * flags as 0 or 1), and the states they stand for: the same in every SQL store, so a memory
 * reads back the same whichever store holds it.
 */
import type { MemoryId } from "../domain/ids.js"
import type { ConversationState } from "../projections/conversation-state.js"
import type { EvidenceState } from "../projections/evidence-state.js"
import { NO_CUES, type MemoryState } from "../projections/memory-state.js"

export const MEMORY_COLUMNS =
  "key, id, content, content_key, category, scope, project, tags, cues, source, status, instruction_like, confidence, confirmations, confirmed_by_person, stated_in, superseded_by, forgotten, forgotten_reason, distinct_from, created_at, updated_at, origin, agent, last_seq, private_to"

export interface MemoryRow {
  key: number
  id: string
  content: string
  content_key: string
  category: string
  scope: string
  project: string | null
  tags: string
  cues: string
  source: string
  status: string
  instruction_like: number
  confidence: number
  confirmations: number
  confirmed_by_person: number
  stated_in: string
  superseded_by: string | null
  forgotten: number
  forgotten_reason: string | null
  distinct_from: string
  created_at: string
  updated_at: string
  origin: string
  agent: string
  last_seq: number
  private_to: string | null
}

/** Rows were written from validated events, so they are trusted here without re-decoding. */
export const rowToMemory = (row: MemoryRow): MemoryState => ({
  id: row.id as MemoryId,
  key: row.key,
  content: row.content,
  contentKey: row.content_key,
  category: row.category as MemoryState["category"],
  scope: row.scope as MemoryState["scope"],
  project: row.project,
  tags: JSON.parse(row.tags) as string[],
  cues: row.cues === "[]" ? NO_CUES : (JSON.parse(row.cues) as string[]),
  source: row.source as MemoryState["source"],
  status: row.status as MemoryState["status"],
  instructionLike: row.instruction_like === 1,
  confidence: row.confidence,
  confirmations: row.confirmations,
  confirmedByPerson: row.confirmed_by_person === 1,
  statedIn: JSON.parse(row.stated_in) as string[],
  supersededBy: row.superseded_by as MemoryId | null,
  forgotten: row.forgotten === 1,
  forgottenReason: row.forgotten_reason,
  distinctFrom: JSON.parse(row.distinct_from) as MemoryId[],
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  origin: row.origin,
  agent: row.agent,
  lastSeq: row.last_seq,
  privateTo: row.private_to
})

/** A memory's fields in the order of MEMORY_COLUMNS. */
export const memoryParams = (m: MemoryState): unknown[] => [
    m.key,
    m.id,
    m.content,
    m.contentKey,
    m.category,
    m.scope,
    m.project,
    JSON.stringify(m.tags),
    JSON.stringify(m.cues),
    m.source,
    m.status,
    m.instructionLike ? 1 : 0,
    m.confidence,
    m.confirmations,
    m.confirmedByPerson ? 1 : 0,
    JSON.stringify(m.statedIn),
    m.supersededBy,
    m.forgotten ? 1 : 0,
    m.forgottenReason,
    JSON.stringify(m.distinctFrom),
    m.createdAt,
    m.updatedAt,
    m.origin,
    m.agent,
    m.lastSeq,
    m.privateTo
  ]

export interface EvidenceRow {
  memory_id: string
  worked: number
  failed: number
  anchor_ms: number
  worked_count: number
  failed_count: number
  partial_count: number
  event_ids: string
}

export const rowToEvidence = (row: EvidenceRow): EvidenceState => ({
  memoryId: row.memory_id as MemoryId,
  worked: row.worked,
  failed: row.failed,
  anchorMs: row.anchor_ms,
  workedCount: row.worked_count,
  failedCount: row.failed_count,
  partialCount: row.partial_count,
  eventIds: JSON.parse(row.event_ids) as string[]
})

export interface ConversationRow {
  origin: string
  events: number
  memories_added: number
  outcomes: number
  first_at: string
  last_at: string
  forgotten: number
  purged_events: number
  /** JSON lists (conversation-state.ts). */
  authors: string
  private_authors: string
}

export const rowToConversation = (row: ConversationRow): ConversationState => ({
  origin: row.origin,
  events: row.events,
  memoriesAdded: row.memories_added,
  outcomes: row.outcomes,
  firstAt: row.first_at,
  lastAt: row.last_at,
  forgotten: row.forgotten === 1,
  purgedEvents: row.purged_events,
  authors: JSON.parse(row.authors) as Array<string | null>,
  privateAuthors: JSON.parse(row.private_authors) as string[]
})

/** A conversation's fields in the order of its table's columns (origin, events, ..., purged_events, authors, private_authors). */
export const conversationParams = (c: ConversationState): unknown[] => [
  c.origin,
  c.events,
  c.memoriesAdded,
  c.outcomes,
  c.firstAt,
  c.lastAt,
  c.forgotten ? 1 : 0,
  c.purgedEvents,
  JSON.stringify(c.authors),
  JSON.stringify(c.privateAuthors)
]

