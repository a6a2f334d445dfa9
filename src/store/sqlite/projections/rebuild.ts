/**
 * Drops every projection and replays the log into it. One pass in sequence order with the
 * state in memory, then one bulk write: the same folds as the incremental path (projector.ts),
 * so the result is the same, which `mem verify` and a property test check.
 */
import type { LedgerConfig } from "../../../config.js"
import { isConversationControl, memoryIdsOf, type StoredEvent } from "../../../events/events.js"
import { decodePayload } from "../../../events/codec.js"
import { eventCount, readEvents } from "../event-log.js"
import type { Db } from "../database.js"
import { clearStatements, writesOn } from "../statements.js"
import { writeCheckpoint } from "./checkpoints.js"
import { countEvent, setForgotten, type ConversationState } from "../../../projections/conversation-state.js"
import { writeConversation } from "./conversations.js"
import { writeEvidence } from "./evidence.js"
import { evolveEvidence, type EvidenceState } from "../../../projections/evidence-state.js"
import { indexMemory } from "./fts.js"
import { evolveMemory, type MemoryState } from "../../../projections/memory-state.js"
import { writeMemory } from "./memories.js"
import { emptyConversation } from "./projector.js"
import { CUE_LOOKBACK, evolveCues, recallWindow, type CueState } from "../../../projections/cue-state.js"
import { writeCueState } from "./cues.js"
import { PROJECTIONS, versionOf } from "./registry.js"
import type { Progress } from "../../store-maintenance.js"

/** Runs in the caller's transaction. */
export const rebuildProjections = (db: Db, config: LedgerConfig, onProgress?: Progress): { events: number } => {
  // Sequence numbers are gap-free, so the last one is the count, without a scan of the log.
  const total = eventCount(db)
  const hidden = finalForgottenOrigins(db)
  const conversations = new Map<string, ConversationState>()
  const memories = new Map<string, MemoryState>()
  const evidence = new Map<string, EvidenceState>()
  const cues = new Map<string, CueState>()
  // Each conversation's latest recalls and outcomes, newest first: the same CUE_LOOKBACK events
  // the incremental path reads from the log for an outcome's cue window.
  const recent = new Map<string, StoredEvent[]>()
  let lastSeq = 0
  let read = 0
  for (const stored of readEvents(db)) {
    lastSeq = stored.seq
    read++
    if (onProgress && lastSeq % 50_000 === 0) onProgress(lastSeq * 0.8, total)
    foldConversation(conversations, stored)
    const event = stored.event
    if (event === null || isConversationControl(event) || hidden.has(stored.origin)) continue
    // The Map writes are skipped when a fold returns its state unchanged (an outcome leaves the
    // memory as it is, and only outcomes move evidence): same maps, a million events faster.
    const outcome = event._tag === "OutcomeRecorded"
    const teaches = outcome || event._tag === "CueDropped"
    const window = outcome ? recallWindow(stored, recent.get(stored.origin) ?? [], config) : []
    if (outcome || event._tag === "MemoriesRecalled") remember(recent, stored)
    for (const memoryId of distinct(memoryIdsOf(event))) {
      const before = memories.get(memoryId)
      const m = evolveMemory(before, stored, memoryId)
      if (m !== undefined && m !== before) memories.set(memoryId, m)
      if (teaches && m !== undefined) {
        const c = evolveCues(cues.get(memoryId), stored, m, window, config)
        if (c !== undefined) cues.set(memoryId, c)
      }
      if (!outcome) continue
      const e = evolveEvidence(evidence.get(memoryId), stored, memoryId, config.halfLifeDays, config.contradictionDiscount)
      if (e) evidence.set(memoryId, e)
    }
  }

  clearStatements(db)
  for (const p of PROJECTIONS) p.drop(db)
  for (const p of PROJECTIONS) p.create(db)
  for (const p of PROJECTIONS) writeCheckpoint(db, p.name, versionOf(p, config), lastSeq)
  const to = writesOn(db)
  let written = 0
  for (const m of memories.values()) {
    writeMemory(to, m)
    if (onProgress && ++written % 50_000 === 0) onProgress(total * (0.8 + (0.1 * written) / memories.size), total)
  }
  for (const e of evidence.values()) writeEvidence(db, e)
  for (const c of conversations.values()) writeConversation(to, c)
  for (const [memoryId, c] of cues) if (memories.has(memoryId)) writeCueState(db, c.memoryId, c)
  // The full-text index is written last, after every other write above: each of those
  // opens a statement savepoint, and FTS5 flushes its pending terms to a new segment at every
  // savepoint. Interleaved, that made one tiny segment (and its merges) per memory; written
  // together, FTS5 batches them. Same rows either way.
  written = 0
  for (const m of memories.values()) {
    indexMemory(to, undefined, m)
    if (onProgress && ++written % 50_000 === 0) onProgress(total * (0.9 + (0.1 * written) / memories.size), total)
  }
  onProgress?.(total, total)
  return { events: read }
}

const remember = (recent: Map<string, StoredEvent[]>, stored: StoredEvent): void => {
  const list = recent.get(stored.origin) ?? []
  list.unshift(stored)
  if (list.length > CUE_LOOKBACK) list.pop()
  recent.set(stored.origin, list)
}

/** The ids once each; most events name one memory, and need no Set for that. */
const distinct = <A>(ids: ReadonlyArray<A>): ReadonlyArray<A> => (ids.length < 2 ? ids : [...new Set(ids)])

/** Which origins are forgotten once the whole log is read: only these events are hidden. */
const finalForgottenOrigins = (db: Db): Set<string> => {
  const hidden = new Set<string>()
  const rows = db
    .prepare("SELECT type, version, payload FROM events WHERE type IN ('ConversationForgotten', 'ConversationRestored') ORDER BY seq")
    .all() as { type: string; version: number; payload: string | null }[]
  for (const row of rows) {
    if (row.payload === null) continue
    const { origin } = decodePayload(row.type, row.version, row.payload) as { origin: string }
    if (row.type === "ConversationForgotten") hidden.add(origin)
    else hidden.delete(origin)
  }
  return hidden
}

const foldConversation = (conversations: Map<string, ConversationState>, stored: StoredEvent): void => {
  conversations.set(stored.origin, countEvent(conversations.get(stored.origin), stored))
  const event = stored.event
  if (event !== null && isConversationControl(event)) {
    const current = conversations.get(event.origin) ?? emptyConversation(event.origin, stored.recordedAt)
    conversations.set(event.origin, setForgotten(current, event._tag === "ConversationForgotten"))
  }
}
