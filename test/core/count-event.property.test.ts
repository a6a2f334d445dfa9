/**
 * Protects the conversations fold (src/projections/conversation-state.ts): `countEvent`, which
 * writes every field out, counts as the spread of a first state it replaced, for any state
 * (none, fresh, forgotten, with purged events, with authors) and any event (of each type, or
 * purged; with an author or none; a private memory or not).
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import { EVENT_TYPES, type StoredEvent } from "../../src/events/events.js"
import { countEvent, type ConversationState } from "../../src/projections/conversation-state.js"

/** The fold as it was written before. */
const countBySpread = (state: ConversationState | undefined, stored: StoredEvent): ConversationState => {
  const base: ConversationState = state ?? {
    origin: stored.origin,
    events: 0,
    memoriesAdded: 0,
    outcomes: 0,
    firstAt: stored.recordedAt,
    lastAt: stored.recordedAt,
    forgotten: false,
    purgedEvents: 0,
    authors: [],
    privateAuthors: []
  }
  const author = stored.author ?? null
  const privately = stored.event?._tag === "MemoryAdded" && stored.event.visibility === "private" && author !== null
  return {
    ...base,
    events: base.events + 1,
    memoriesAdded: base.memoriesAdded + (stored.type === "MemoryAdded" ? 1 : 0),
    outcomes: base.outcomes + (stored.type === "OutcomeRecorded" ? 1 : 0),
    lastAt: stored.recordedAt,
    purgedEvents: base.purgedEvents + (stored.event === null ? 1 : 0),
    authors: base.authors.includes(author) ? base.authors : [...base.authors, author],
    privateAuthors: privately && !base.privateAuthors.includes(author) ? [...base.privateAuthors, author] : base.privateAuthors
  }
}

const time = fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString())
const state: fc.Arbitrary<ConversationState | undefined> = fc.option(
  fc.record({
    origin: fc.string({ minLength: 1 }),
    events: fc.nat(),
    memoriesAdded: fc.nat(),
    outcomes: fc.nat(),
    firstAt: time,
    lastAt: time,
    forgotten: fc.boolean(),
    purgedEvents: fc.nat(),
    authors: fc.uniqueArray(fc.constantFrom(null, "alice", "bob"), { maxLength: 3 }),
    privateAuthors: fc.uniqueArray(fc.constantFrom("alice", "bob"), { maxLength: 2 })
  }),
  { nil: undefined }
)
const stored = fc
  .record({
    seq: fc.nat(),
    type: fc.constantFrom(...EVENT_TYPES),
    recordedAt: time,
    origin: fc.string({ minLength: 1 }),
    purged: fc.boolean(),
    author: fc.option(fc.constantFrom("alice", "bob"), { nil: undefined }),
    privately: fc.boolean()
  })
  .map(
    ({ seq, type, recordedAt, origin, purged, author, privately }) =>
      ({
        seq,
        id: "e",
        type,
        version: 1,
        recordedAt,
        origin,
        agent: "a",
        ...(author === undefined ? {} : { author }),
        event: purged ? null : ({ _tag: type, ...(privately ? { visibility: "private" } : {}) } as never),
        payloadHash: "",
        hash: ""
      }) as StoredEvent
  )

test("countEvent counts as the spread of a first state did", () => {
  fc.assert(
    fc.property(state, stored, (s, e) => {
      const counted = countEvent(s, e)
      expect(counted).toStrictEqual(countBySpread(s, e))
      expect(Object.keys(counted)).toEqual(Object.keys(countBySpread(s, e)))
    }),
    { numRuns: 3_000 }
  )
})
