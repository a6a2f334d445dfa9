/**
 * Builds StoredEvents in memory, as the log would hand them to a fold: sequence numbers from 1,
 * one minute apart unless a time is given, origin `cli` unless another is given.
 */
import { GENESIS_HASH } from "../../src/events/codec.js"
import type { DomainEvent, StoredEvent } from "../../src/events/events.js"
import { eventId } from "./ids.js"

export const BASE_TIME_MS = Date.parse("2025-01-01T00:00:00.000Z")

/** An event with the envelope fields a test cares about; `purged` erases the payload. */
export interface Given {
  readonly event: DomainEvent
  readonly origin?: string
  readonly agent?: string
  readonly recordedAt?: string
  readonly purged?: boolean
}

export type GivenLike = DomainEvent | Given

const isGiven = (g: GivenLike): g is Given => !("_tag" in g)

export const toStored = (history: ReadonlyArray<GivenLike>): StoredEvent[] =>
  history.map((g, i) => {
    const given: Given = isGiven(g) ? g : { event: g }
    return {
      seq: i + 1,
      id: eventId(i + 1),
      version: 1,
      recordedAt: given.recordedAt ?? new Date(BASE_TIME_MS + i * 60_000).toISOString(),
      origin: given.origin ?? "cli",
      agent: given.agent ?? "cli",
      type: given.event._tag,
      event: given.purged ? null : given.event,
      payloadHash: GENESIS_HASH,
      hash: GENESIS_HASH
    }
  })

/** Shorthand for an event from another conversation. */
export const from = (origin: string, event: DomainEvent): Given => ({ event, origin })
