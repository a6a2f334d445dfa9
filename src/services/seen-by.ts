/**
 * The store as one reader may see it (domain/viewer.ts): every read of the port (LedgerReads)
 * and every decision's view of the state (DecisionState) through one wrapper, so that no
 * surface, and no service, has its own copy of the rule. Another person's private memory is
 * not there: not by id or prefix (MemoryNotFound), not among candidates, neighbours or
 * restatements, not in a listing, and no event that concerns it is in the log.
 *
 * Where a read has a limit, the store applies the reader itself (its queries take the viewer:
 * candidates, neighbours, restatements, pages, the gate), so a limit counts only what the
 * reader sees; where it has none, the wrapper filters what the store returned. The log's reads
 * are filtered here and read on until their limit is met.
 */
import { Either } from "effect"
import type { DecisionState } from "../commands/state.js"
import { MemoryNotFound } from "../domain/errors.js"
import { canSee, type Viewer } from "../domain/viewer.js"
import { memoryIdsOf, type StoredEvent } from "../events/events.js"
import type { ReadFilter } from "../events/log.js"
import { conversationSeenBy } from "../projections/conversation-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import type { LedgerReads } from "../store/ledger-reads.js"

/** The reads as `viewer` sees them. */
export const seenBy = (reads: LedgerReads, viewer: Viewer): LedgerReads => {
  const sees = (m: MemoryState | undefined): m is MemoryState => m !== undefined && canSee(viewer, m.privateTo)
  const eventSeen = eventSeenBy(reads, viewer)
  return {
    ...reads,
    memory: (id) => {
      const m = reads.memory(id)
      return sees(m) ? m : undefined
    },
    memoriesByKey: (keys) => new Map([...reads.memoriesByKey(keys)].filter(([, m]) => sees(m))),
    resolveId: (typed) => Either.flatMap(reads.resolveId(typed), (id) => (sees(reads.memory(id)) ? Either.right(id) : Either.left(new MemoryNotFound({ id: typed })))),
    offeredUnasked: (project) => reads.offeredUnasked(project, viewer),
    restatementOf: (contentKey, scope, project) => reads.restatementOf(contentKey, scope, project, viewer),
    conversations: () => reads.conversations().filter((c) => conversationSeenBy(c, viewer)),
    events: (filter) => visibleEvents(reads, filter, eventSeen),
    keywordCandidates: (phrasings, scope, limit, config, nowMs, count) => reads.keywordCandidates(phrasings, { ...scope, viewer }, limit, config, nowMs, count),
    prefetchNeighbours: (query, scope, limit, config) => reads.prefetchNeighbours(query, { ...scope, viewer }, limit, config),
    addVectorCandidates: (found, query, scope, limit, config, nowMs) => reads.addVectorCandidates(found, query, { ...scope, viewer }, limit, config, nowMs),
    // Listed for `why` without a limit of their own to keep right: the store's list, filtered.
    keywordMatchesOutside: (query, scope) => reads.keywordMatchesOutside(query, { ...scope, viewer }).filter(sees),
    keywordNeighbours: (content, project, count) => reads.keywordNeighbours(content, project, count, viewer),
    vectorNeighbours: (vector, project, count) => reads.vectorNeighbours(vector, project, count, viewer),
    counts: (nowMs, config) => reads.counts(nowMs, config, viewer),
    memoryCounts: (projects) => reads.memoryCounts(projects, viewer),
    outcomesByDay: (sinceDay) => reads.outcomesByDay(sinceDay, viewer),
    gatedMemories: (nowMs, config, limit) => reads.gatedMemories(nowMs, config, limit, viewer),
    memoryPage: (filter) => reads.memoryPage({ ...filter, viewer }),
    // The memories named beside events: their owners are mostly known from reading the events.
    memoryTexts: (ids) => reads.memoryTexts(eventSeen.seenMemories(ids))
  }
}

/** A decision's view of the state as `viewer` sees it: what a writer cannot see, it cannot change or restate. */
export const decidedBy = (state: DecisionState, viewer: Viewer): DecisionState => ({
  memory: (id) => {
    const m = state.memory(id)
    return m !== undefined && canSee(viewer, m.privateTo) ? m : undefined
  },
  restatementOf: (contentKey, scope, project) => state.restatementOf(contentKey, scope, project, viewer),
  conversation: state.conversation
})

/** Whether a reader may see an event; `readOwners` learns, in one read, whose the memories of many events are. */
export interface EventSight {
  (event: StoredEvent): boolean
  /** Reads the owners of the memories these events name that it does not know yet, before it is asked about them. */
  readonly readOwners: (events: ReadonlyArray<StoredEvent>) => void
  /** Those of `ids` that the projections hold and the reader may see. */
  readonly seenMemories: (ids: ReadonlyArray<string>) => string[]
}

/**
 * Whether `viewer` may see an event: every memory it concerns is one they may see. A memory no
 * projection holds (its conversation is forgotten) is private to whoever its own events made it
 * private to, read from the log. A purged event shows nothing of what it said, and is shown.
 */
export const eventSeenBy = (reads: LedgerReads, viewer: Viewer): EventSight => {
  const owners = new Map<string, string | null>()
  const ownerOf = (id: string): string | null => {
    let owner = owners.get(id)
    if (owner === undefined) {
      owner = ownerInLog(reads, id)
      owners.set(id, owner)
    }
    return owner
  }
  // Memories the projections hold, of those whose owner is known: an owner read from the log is of one they do not hold.
  const held = new Set<string>()
  const readOwnersOf = (ids: Iterable<string>): void => {
    const unknown = new Set<string>()
    for (const id of ids) if (!owners.has(id)) unknown.add(id)
    if (unknown.size === 0) return
    for (const [id, owner] of reads.ownersOf([...unknown])) {
      owners.set(id, owner)
      held.add(id)
    }
  }
  const readOwners = (events: ReadonlyArray<StoredEvent>): void => readOwnersOf(events.flatMap((e) => (e.event === null ? [] : memoryIdsOf(e.event))))
  const sees = (stored: StoredEvent) => {
    readOwners([stored])
    return stored.event === null || memoryIdsOf(stored.event).every((id) => canSee(viewer, ownerOf(id)))
  }
  const seenMemories = (ids: ReadonlyArray<string>): string[] => {
    readOwnersOf(ids)
    return ids.filter((id) => held.has(id) && canSee(viewer, owners.get(id)!))
  }
  return Object.assign(sees, { readOwners, seenMemories })
}

/** Whom a memory's own events made it private to, all of them counted (none hidden). */
const ownerInLog = (reads: LedgerReads, id: string): string | null => {
  let owner: string | null = null
  for (const stored of [...reads.events({ memoryId: id })]) {
    const event = stored.event
    if (event?._tag === "MemoryAdded" && event.memoryId === id) owner = event.visibility === "private" ? (stored.author ?? null) : null
    else if (event?._tag === "MemoryRevised" && event.visibility !== undefined) owner = event.visibility === "shared" ? null : (stored.author ?? owner)
  }
  return owner
}

/** How many events a filtered read asks the store for at a time, when it must read past what it leaves out. */
const PAGE = 500

/**
 * The events of `filter` that `seen` keeps, as many as its limit asks for: a page the store
 * returned short of it, because some were left out, is followed by the next, from where the
 * last one ended. Each page is read whole before `seen` looks at it: `seen` reads the store,
 * which a connection still stepping through a page may not do (better-sqlite3's iterate).
 */
function* visibleEvents(reads: LedgerReads, filter: ReadFilter, seen: EventSight): Generator<StoredEvent> {
  if (filter.limit === undefined) {
    const all = [...reads.events(filter)]
    seen.readOwners(all)
    for (const e of all) if (seen(e)) yield e
    return
  }
  let wanted = filter.limit
  let page: ReadFilter = filter
  while (wanted > 0) {
    const asked = Math.max(wanted, Math.min(PAGE, wanted * 2))
    const batch = [...reads.events({ ...page, limit: asked })]
    seen.readOwners(batch)
    for (const e of batch) {
      if (!seen(e)) continue
      yield e
      if (--wanted === 0) return
    }
    const last = batch.at(-1)
    if (batch.length < asked || last === undefined) return
    page = filter.newestFirst === true ? { ...page, before: last.seq } : { ...page, after: last.seq }
  }
}
