/** Event builders with sensible defaults, so a test spells out only what it is about. */
import type { MemoryId } from "../../src/domain/ids.js"
import type { Outcome } from "../../src/domain/vocabulary.js"
import type { EventOf } from "../../src/events/events.js"

export const added = (
  memoryId: MemoryId,
  content: string,
  fields: Partial<Omit<EventOf<"MemoryAdded">, "_tag" | "memoryId" | "content">> = {}
): EventOf<"MemoryAdded"> => ({
  _tag: "MemoryAdded",
  memoryId,
  content,
  category: "general",
  scope: "global",
  project: null,
  tags: [],
  source: "explicit",
  status: "confirmed",
  confidence: 0.9,
  ...fields
})

export const revised = (
  memoryId: MemoryId,
  changes: Partial<Omit<EventOf<"MemoryRevised">, "_tag" | "memoryId">>
): EventOf<"MemoryRevised"> => ({ _tag: "MemoryRevised", memoryId, ...changes })

export const confirmed = (memoryId: MemoryId): EventOf<"MemoryConfirmed"> => ({ _tag: "MemoryConfirmed", memoryId })

export const superseded = (memoryId: MemoryId, by: MemoryId): EventOf<"MemorySuperseded"> => ({
  _tag: "MemorySuperseded",
  memoryId,
  by
})

export const markedDistinct = (memoryId: MemoryId, from: MemoryId): EventOf<"MemoriesMarkedDistinct"> => ({
  _tag: "MemoriesMarkedDistinct",
  memoryId,
  from
})

export const outcome = (
  memoryIds: readonly [MemoryId, ...MemoryId[]],
  result: Outcome,
  details: { task?: string; note?: string } = {}
): EventOf<"OutcomeRecorded"> => ({ _tag: "OutcomeRecorded", memoryIds, outcome: result, ...details })

export const recalled = (query: string, memoryIds: ReadonlyArray<MemoryId>): EventOf<"MemoriesRecalled"> => ({
  _tag: "MemoriesRecalled",
  query,
  memoryIds
})

export const forgotten = (memoryId: MemoryId, reason = "outdated"): EventOf<"MemoryForgotten"> => ({
  _tag: "MemoryForgotten",
  memoryId,
  reason
})

export const restored = (memoryId: MemoryId, reason = "still true"): EventOf<"MemoryRestored"> => ({
  _tag: "MemoryRestored",
  memoryId,
  reason
})

export const conversationForgotten = (origin: string): EventOf<"ConversationForgotten"> => ({
  _tag: "ConversationForgotten",
  origin
})

export const conversationRestored = (origin: string): EventOf<"ConversationRestored"> => ({
  _tag: "ConversationRestored",
  origin
})
