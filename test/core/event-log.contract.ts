/**
 * The event store contract (docs/architecture.md, "The log"): what every implementation of the log
 * must do. `event-log.test.ts` runs it against SQLite through LedgerStore; a second backend passes
 * the same suite by providing an `EventLogUnderTest`.
 */
import { describe, expect, test } from "vitest"
import { chainHash, encodePayload, GENESIS_HASH, sha256 } from "../../src/events/codec.js"
import type { StoredEvent } from "../../src/events/events.js"
import { added, confirmed, markedDistinct, outcome, superseded } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { type NewEvent, type ReadFilter } from "../../src/events/log.js"

export interface EventLogUnderTest {
  /** Runs `f` as one write transaction; if it throws, nothing it appended is kept. */
  readonly write: <A>(f: (append: (events: ReadonlyArray<NewEvent>) => StoredEvent[]) => A) => A
  readonly read: (filter?: ReadFilter) => StoredEvent[]
  /** Changes a stored event behind the log's back; throws when the log refuses. */
  readonly tamper: {
    readonly setPayload: (seq: number, payload: string | null) => void
    readonly setColumn: (seq: number, column: "origin" | "recorded_at" | "hash" | "payload_hash" | "type", value: string) => void
    readonly remove: (seq: number) => void
  }
  readonly close: () => void
}

const A = memoryId(1)
const B = memoryId(2)
const C = memoryId(3)

let nextId = 1
const envelope = (event: NewEvent["event"], origin = "cli", minute = 0): NewEvent => ({
  id: eventId(nextId++),
  recordedAt: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString(),
  origin,
  agent: "test",
  event
})

export const eventLogContract = (name: string, open: () => EventLogUnderTest): void => {
  describe(`event log contract: ${name}`, () => {
    const fresh = (): EventLogUnderTest => open()
    const appendEach = (log: EventLogUnderTest, batches: ReadonlyArray<ReadonlyArray<NewEvent>>) =>
      batches.flatMap((batch) => log.write((append) => append(batch)))

    test("append assigns gap-free sequence numbers from 1, across transactions", () => {
      const log = fresh()
      const stored = appendEach(log, [
        [envelope(added(A, "a"))],
        [envelope(confirmed(A)), envelope(confirmed(A)), envelope(confirmed(A))],
        [envelope(added(B, "b")), envelope(confirmed(B))]
      ])
      expect(stored.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6])
      expect(log.read().map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6])
      log.close()
    })

    test("read returns what append stored: envelope and event", () => {
      const log = fresh()
      const input = [envelope(added(A, "a", { tags: ["t"] }), "codex:thread/1", 5), envelope(outcome([A], "worked", { task: "T" }))]
      const stored = log.write((append) => append(input))
      const read = log.read()
      expect(read).toEqual(stored)
      expect(read.map(({ id, recordedAt, origin, agent, event }) => ({ id, recordedAt, origin, agent, event }))).toEqual(input)
      expect(read.map((e) => e.type)).toEqual(["MemoryAdded", "OutcomeRecorded"])
      log.close()
    })

    test("read after a position returns only later events, in order, up to a limit", () => {
      const log = fresh()
      appendEach(log, [[envelope(added(A, "a"))], [envelope(added(B, "b"))], [envelope(confirmed(A))], [envelope(confirmed(B))]])
      expect(log.read({ after: 2 }).map((e) => e.seq)).toEqual([3, 4])
      expect(log.read({ after: 1, limit: 2 }).map((e) => e.seq)).toEqual([2, 3])
      expect(log.read({ after: 4 })).toEqual([])
      log.close()
    })

    test("read by memory id returns every event that concerns it, once, and no other", () => {
      const log = fresh()
      log.write((append) =>
        append([
          envelope(added(A, "a")),
          envelope(added(B, "b")),
          envelope(added(C, "c")),
          envelope(outcome([A, C], "worked")),
          envelope(superseded(C, B)),
          envelope(markedDistinct(A, B)),
          envelope(confirmed(C))
        ])
      )
      expect(log.read({ memoryId: A }).map((e) => e.seq)).toEqual([1, 4, 6])
      expect(log.read({ memoryId: B }).map((e) => e.seq)).toEqual([2, 5, 6])
      expect(log.read({ memoryId: C }).map((e) => e.seq)).toEqual([3, 4, 5, 7])
      expect(log.read({ memoryId: memoryId(99) })).toEqual([])
      log.close()
    })

    test("read by origin returns only that conversation's events", () => {
      const log = fresh()
      log.write((append) =>
        append([envelope(added(A, "a"), "x"), envelope(added(B, "b"), "y"), envelope(confirmed(A), "x"), envelope(confirmed(B), "y")])
      )
      expect(log.read({ origin: "x" }).map((e) => e.seq)).toEqual([1, 3])
      expect(log.read({ origin: "y", memoryId: B }).map((e) => e.seq)).toEqual([2, 4])
      expect(log.read({ origin: "z" })).toEqual([])
      log.close()
    })

    test("read until a time returns the events recorded at or before it", () => {
      const log = fresh()
      log.write((append) => append([envelope(added(A, "a"), "cli", 1), envelope(confirmed(A), "cli", 2), envelope(confirmed(A), "cli", 3)]))
      expect(log.read({ until: new Date(Date.UTC(2025, 0, 1, 0, 2)).toISOString() }).map((e) => e.seq)).toEqual([1, 2])
      log.close()
    })

    test("each event's hash links the previous one through chainHash, across transactions", () => {
      const log = fresh()
      appendEach(log, [[envelope(added(A, "a")), envelope(confirmed(A))], [envelope(added(B, "b"))]])
      let previous = GENESIS_HASH
      for (const e of log.read()) {
        expect(e.payloadHash).toBe(sha256(encodePayload(e.event!)))
        const { seq, id, type, version, recordedAt, origin, agent } = e
        const envelope = { seq, id, type, version, recordedAt, origin, agent }
        expect(e.hash).toBe(chainHash(previous, envelope, e.payloadHash))
        // Tamper-evident: the link depends on the previous hash, every envelope field and the payload.
        expect(chainHash(sha256(previous), envelope, e.payloadHash)).not.toBe(e.hash)
        expect(chainHash(previous, envelope, sha256(e.payloadHash))).not.toBe(e.hash)
        for (const field of Object.keys(envelope) as (keyof typeof envelope)[]) {
          const altered = { ...envelope, [field]: typeof envelope[field] === "number" ? Number(envelope[field]) + 1 : `${envelope[field]}x` }
          expect(chainHash(previous, altered, e.payloadHash), field).not.toBe(e.hash)
        }
        previous = e.hash
      }
      log.close()
    })

    test("a stored event cannot be changed or removed", () => {
      const log = fresh()
      log.write((append) => append([envelope(added(A, "secret")), envelope(confirmed(A))]))
      const before = log.read()
      expect(() => log.tamper.setPayload(1, JSON.stringify({ ...added(A, "edited"), _tag: undefined }))).toThrow(/append-only/)
      expect(() => log.tamper.setColumn(1, "origin", "someone-else")).toThrow(/append-only/)
      expect(() => log.tamper.setColumn(1, "recorded_at", "2020-01-01T00:00:00.000Z")).toThrow(/append-only/)
      expect(() => log.tamper.setColumn(2, "hash", GENESIS_HASH)).toThrow(/append-only/)
      expect(() => log.tamper.setColumn(2, "payload_hash", GENESIS_HASH)).toThrow(/append-only/)
      expect(() => log.tamper.setColumn(2, "type", "MemoryForgotten")).toThrow(/append-only/)
      expect(() => log.tamper.remove(2)).toThrow(/append-only/)
      expect(log.read()).toEqual(before)
      log.close()
    })

    test("purge may erase a payload in place: envelope, payload hash and chain stay", () => {
      const log = fresh()
      log.write((append) => append([envelope(added(A, "secret")), envelope(confirmed(A))]))
      const before = log.read()
      log.tamper.setPayload(1, null)
      const after = log.read()
      expect(after[0]).toEqual({ ...before[0], event: null })
      expect(after[1]).toEqual(before[1])
      log.close()
    })

    test("a write transaction that throws leaves nothing, and the next append has no gap", () => {
      const log = fresh()
      log.write((append) => append([envelope(added(A, "a"))]))
      expect(() =>
        log.write((append) => {
          append([envelope(added(B, "b")), envelope(confirmed(B))])
          throw new Error("decided otherwise")
        })
      ).toThrow("decided otherwise")
      expect(log.read().map((e) => e.seq)).toEqual([1])
      expect(log.read({ memoryId: B })).toEqual([])
      expect(log.write((append) => append([envelope(added(C, "c"))])).map((e) => e.seq)).toEqual([2])
      log.close()
    })

    test("an event that fails its schema is refused, and its batch with it", () => {
      const log = fresh()
      expect(() => log.write((append) => append([envelope(added(A, "fine")), envelope(added(B, "   "))]))).toThrow()
      expect(() => log.write((append) => append([envelope(added(A, "x".repeat(10_001)))]))).toThrow()
      expect(log.read()).toEqual([])
      log.close()
    })

    test("a malformed envelope is refused: ISO-8601 UTC time, an origin, an agent", () => {
      const log = fresh()
      const bad: ReadonlyArray<Partial<NewEvent>> = [
        { recordedAt: "yesterday" },
        { recordedAt: "2025-01-01T02:00:00+02:00" },
        { origin: "" },
        { agent: "" }
      ]
      for (const fields of bad) {
        expect(() => log.write((append) => append([{ ...envelope(added(A, "a")), ...fields }])), JSON.stringify(fields)).toThrow()
      }
      expect(log.read()).toEqual([])
      log.close()
    })

    test("an event id is never stored twice", () => {
      const log = fresh()
      const first = envelope(added(A, "a"))
      log.write((append) => append([first]))
      expect(() => log.write((append) => append([envelope(added(B, "b")), { ...first, event: confirmed(A) }]))).toThrow()
      expect(log.read().map((e) => e.id)).toEqual([first.id])
      log.close()
    })
  })
}
