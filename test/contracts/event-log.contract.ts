/**
 * The event store contract (docs/architecture.md, "The storage port"): what every store's log
 * must do, driven through the `EventLog` port. `event-log.test.ts` runs it against SQLite; a
 * second store passes the same suite by providing an `EventLogUnderTest`.
 */
import { describe, expect, test } from "vitest"
import { chainHash, encodePayload, GENESIS_HASH, sha256 } from "../../src/events/codec.js"
import type { StoredEvent } from "../../src/events/events.js"
import { added, confirmed, markedDistinct, outcome, superseded } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import type { NewEvent, ReadFilter } from "../../src/events/log.js"

/**
 * A store's event log as the contract drives it: the port's write and read, and a way around the
 * port to change stored rows (which the store must refuse). Every operation may be asynchronous.
 */
export interface EventLogUnderTest {
  /** Runs `f` as one write transaction; if it throws, nothing it appended is kept. */
  readonly write: <A>(f: (append: (events: ReadonlyArray<NewEvent>) => StoredEvent[]) => A) => Promise<A>
  readonly read: (filter?: ReadFilter) => Promise<StoredEvent[]>
  /** Changes a stored event behind the log's back; rejects when the log refuses. */
  readonly tamper: {
    readonly setPayload: (seq: number, payload: string | null) => Promise<void>
    readonly setColumn: (seq: number, column: "origin" | "recorded_at" | "hash" | "payload_hash" | "type" | "author", value: string) => Promise<void>
    readonly remove: (seq: number) => Promise<void>
  }
  readonly close: () => Promise<void>
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

export const eventLogContract = (name: string, open: () => Promise<EventLogUnderTest>): void => {
  describe(`event log contract: ${name}`, () => {
    const fresh = (): Promise<EventLogUnderTest> => open()
    const appendEach = async (log: EventLogUnderTest, batches: ReadonlyArray<ReadonlyArray<NewEvent>>) => {
      const stored: StoredEvent[] = []
      for (const batch of batches) stored.push(...(await log.write((append) => append(batch))))
      return stored
    }

    test("append assigns gap-free sequence numbers from 1, across transactions", async () => {
      const log = await fresh()
      const stored = await appendEach(log, [
        [envelope(added(A, "a"))],
        [envelope(confirmed(A)), envelope(confirmed(A)), envelope(confirmed(A))],
        [envelope(added(B, "b")), envelope(confirmed(B))]
      ])
      expect(stored.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6])
      expect((await log.read()).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6])
      await log.close()
    })

    test("read returns what append stored: envelope and event", async () => {
      const log = await fresh()
      const input = [envelope(added(A, "a", { tags: ["t"] }), "codex:thread/1", 5), envelope(outcome([A], "worked", { task: "T" }))]
      const stored = await log.write((append) => append(input))
      const read = await log.read()
      expect(read).toEqual(stored)
      expect(read.map(({ id, recordedAt, origin, agent, event }) => ({ id, recordedAt, origin, agent, event }))).toEqual(input)
      expect(read.map((e) => e.type)).toEqual(["MemoryAdded", "OutcomeRecorded"])
      await log.close()
    })

    test("read after a position returns only later events, in order, up to a limit", async () => {
      const log = await fresh()
      await appendEach(log, [[envelope(added(A, "a"))], [envelope(added(B, "b"))], [envelope(confirmed(A))], [envelope(confirmed(B))]])
      expect((await log.read({ after: 2 })).map((e) => e.seq)).toEqual([3, 4])
      expect((await log.read({ after: 1, limit: 2 })).map((e) => e.seq)).toEqual([2, 3])
      expect(await log.read({ after: 4 })).toEqual([])
      await log.close()
    })

    test("read by memory id returns every event that concerns it, once, and no other", async () => {
      const log = await fresh()
      await log.write((append) =>
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
      expect((await log.read({ memoryId: A })).map((e) => e.seq)).toEqual([1, 4, 6])
      expect((await log.read({ memoryId: B })).map((e) => e.seq)).toEqual([2, 5, 6])
      expect((await log.read({ memoryId: C })).map((e) => e.seq)).toEqual([3, 4, 5, 7])
      expect(await log.read({ memoryId: memoryId(99) })).toEqual([])
      await log.close()
    })

    test("read by origin returns only that conversation's events", async () => {
      const log = await fresh()
      await log.write((append) =>
        append([envelope(added(A, "a"), "x"), envelope(added(B, "b"), "y"), envelope(confirmed(A), "x"), envelope(confirmed(B), "y")])
      )
      expect((await log.read({ origin: "x" })).map((e) => e.seq)).toEqual([1, 3])
      expect((await log.read({ origin: "y", memoryId: B })).map((e) => e.seq)).toEqual([2, 4])
      expect(await log.read({ origin: "z" })).toEqual([])
      await log.close()
    })

    test("read until a time returns the events recorded at or before it", async () => {
      const log = await fresh()
      await log.write((append) => append([envelope(added(A, "a"), "cli", 1), envelope(confirmed(A), "cli", 2), envelope(confirmed(A), "cli", 3)]))
      expect((await log.read({ until: new Date(Date.UTC(2025, 0, 1, 0, 2)).toISOString() })).map((e) => e.seq)).toEqual([1, 2])
      await log.close()
    })

    test("each event's hash links the previous one through chainHash, across transactions", async () => {
      const log = await fresh()
      await appendEach(log, [[envelope(added(A, "a")), envelope(confirmed(A))], [envelope(added(B, "b"))]])
      let previous = GENESIS_HASH
      for (const e of await log.read()) {
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
      await log.close()
    })

    test("an author is kept in the envelope and hashed; an event without one hashes as events always did", async () => {
      const log = await fresh()
      const input = [{ ...envelope(added(A, "a")), author: "alice" }, envelope(confirmed(A)), { ...envelope(confirmed(A)), author: "bob" }]
      const stored = await log.write((append) => append(input))
      const read = await log.read()
      expect(read).toEqual(stored)
      expect(read.map((e) => e.author)).toEqual(["alice", undefined, "bob"])
      // No author, no key: the event reads back as one from before authors existed.
      expect("author" in read[1]!).toBe(false)
      let previous = GENESIS_HASH
      for (const e of read) {
        const { seq, id, type, version, recordedAt, origin, agent } = e
        const bare = { seq, id, type, version, recordedAt, origin, agent }
        const expected = e.author === undefined ? chainHash(previous, bare, e.payloadHash) : chainHash(previous, { ...bare, author: e.author }, e.payloadHash)
        expect(e.hash).toBe(expected)
        // The author is part of what the hash covers: another name, or none, breaks the link.
        if (e.author !== undefined) {
          expect(chainHash(previous, bare, e.payloadHash)).not.toBe(e.hash)
          expect(chainHash(previous, { ...bare, author: `${e.author}x` }, e.payloadHash)).not.toBe(e.hash)
        }
        previous = e.hash
      }
      await expect(log.tamper.setColumn(1, "author", "mallory")).rejects.toThrow(/append-only/)
      await expect(log.write((append) => append([{ ...envelope(added(B, "b")), author: "not a name!" }]))).rejects.toThrow()
      await log.close()
    })

    test("a stored event cannot be changed or removed", async () => {
      const log = await fresh()
      await log.write((append) => append([envelope(added(A, "secret")), envelope(confirmed(A))]))
      const before = await log.read()
      await expect(log.tamper.setPayload(1, JSON.stringify({ ...added(A, "edited"), _tag: undefined }))).rejects.toThrow(/append-only/)
      await expect(log.tamper.setColumn(1, "origin", "someone-else")).rejects.toThrow(/append-only/)
      await expect(log.tamper.setColumn(1, "recorded_at", "2020-01-01T00:00:00.000Z")).rejects.toThrow(/append-only/)
      await expect(log.tamper.setColumn(2, "hash", GENESIS_HASH)).rejects.toThrow(/append-only/)
      await expect(log.tamper.setColumn(2, "payload_hash", GENESIS_HASH)).rejects.toThrow(/append-only/)
      await expect(log.tamper.setColumn(2, "type", "MemoryForgotten")).rejects.toThrow(/append-only/)
      await expect(log.tamper.remove(2)).rejects.toThrow(/append-only/)
      expect(await log.read()).toEqual(before)
      await log.close()
    })

    test("purge may erase a payload in place: envelope, payload hash and chain stay", async () => {
      const log = await fresh()
      await log.write((append) => append([envelope(added(A, "secret")), envelope(confirmed(A))]))
      const before = await log.read()
      await log.tamper.setPayload(1, null)
      const after = await log.read()
      expect(after[0]).toEqual({ ...before[0], event: null })
      expect(after[1]).toEqual(before[1])
      await log.close()
    })

    test("a write transaction that throws leaves nothing, and the next append has no gap", async () => {
      const log = await fresh()
      await log.write((append) => append([envelope(added(A, "a"))]))
      await expect(
        log.write((append) => {
          append([envelope(added(B, "b")), envelope(confirmed(B))])
          throw new Error("decided otherwise")
        })
      ).rejects.toThrow("decided otherwise")
      expect((await log.read()).map((e) => e.seq)).toEqual([1])
      expect(await log.read({ memoryId: B })).toEqual([])
      expect((await log.write((append) => append([envelope(added(C, "c"))]))).map((e) => e.seq)).toEqual([2])
      await log.close()
    })

    test("an event that fails its schema is refused, and its batch with it", async () => {
      const log = await fresh()
      await expect(log.write((append) => append([envelope(added(A, "fine")), envelope(added(B, "   "))]))).rejects.toThrow()
      await expect(log.write((append) => append([envelope(added(A, "x".repeat(10_001)))]))).rejects.toThrow()
      expect(await log.read()).toEqual([])
      await log.close()
    })

    test("a malformed envelope is refused: ISO-8601 UTC time, an origin, an agent", async () => {
      const log = await fresh()
      const bad: ReadonlyArray<Partial<NewEvent>> = [
        { recordedAt: "yesterday" },
        { recordedAt: "2025-01-01T02:00:00+02:00" },
        { origin: "" },
        { agent: "" }
      ]
      for (const fields of bad) {
        await expect(log.write((append) => append([{ ...envelope(added(A, "a")), ...fields }])), JSON.stringify(fields)).rejects.toThrow()
      }
      expect(await log.read()).toEqual([])
      await log.close()
    })

    test("an event id is never stored twice", async () => {
      const log = await fresh()
      const first = envelope(added(A, "a"))
      await log.write((append) => append([first]))
      await expect(log.write((append) => append([envelope(added(B, "b")), { ...first, event: confirmed(A) }]))).rejects.toThrow()
      expect((await log.read()).map((e) => e.id)).toEqual([first.id])
      await log.close()
    })
  })
}
