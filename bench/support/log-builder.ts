/**
 * Builds a realistic outcome-heavy log for the rebuild bench through the ordinary append path
 * (LedgerStore.writeOrThrow with tx.append, which also keeps the projections), in large
 * transactions. Deterministic: the same sizes give the same log, ids included.
 */
import { Either } from "effect"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { makeIdFactory, type MemoryId } from "../../src/domain/ids.js"
import type { Outcome } from "../../src/domain/vocabulary.js"
import { LedgerStore } from "../../src/store/sqlite/ledger-store.js"
import { generateMemories, makeRandom } from "./corpus.js"
import { type NewEvent } from "../../src/events/log.js"

/** Events per append transaction. */
const BUILD_BATCH = 10_000

export interface LogShape {
  /** Of the events after the adds, the share that are recalls (MemoriesRecalled); the rest are outcomes. 0 unless given. */
  readonly recallShare?: number
  /** When the log's last event is recorded (ms); it spans two years up to then. 2026-01-01 unless given. */
  readonly endMs?: number
}

/**
 * The log in time order: each memory is added, then outcomes (and, with `recallShare`, recalls)
 * follow for memories added so far, as agents report them. Returns the event count written.
 */
export const buildLog = (dbFile: string, memories: number, outcomes: number, onProgress?: (events: number) => void, shape: LogShape = {}): number => {
  const total = memories + outcomes
  const r = makeRandom(7)
  const newId = makeIdFactory((n) => Uint8Array.from({ length: n }, () => r.int(0, 255)))
  const lines = generateMemories(memories, 99)
  const origins = Array.from({ length: 12 }, (_, i) => `${["claude-code:session", "codex:thread", "cursor:chat"][i % 3]}/${r.hex(8)}`)
  const ids: MemoryId[] = []
  const span = 2 * 365 * 86_400_000
  const start = shape.endMs === undefined ? Date.UTC(2024, 0, 1) : shape.endMs - span
  const step = span / total
  const store = Either.getOrThrow(LedgerStore.open(dbFile, DEFAULT_CONFIG))
  let written = 0
  let added = 0
  try {
    while (written < total) {
      const batch: NewEvent[] = []
      while (batch.length < BUILD_BATCH && written + batch.length < total) {
        const n = written + batch.length
        const t = start + Math.floor(n * step)
        const recordedAt = new Date(t).toISOString()
        const origin = r.pick(origins)
        const agent = origin.slice(0, origin.indexOf(":"))
        // The id is drawn before the event's own random fields, as the log has always been built.
        const push = (id: string, event: NewEvent["event"]) => batch.push({ id, recordedAt, origin, agent, event })
        // Keep adds ahead of outcomes in the same proportion throughout the log.
        const addNow = added < memories && (ids.length === 0 || added * total <= n * memories || total - n <= memories - added)
        if (addNow) {
          const m = lines[added++]!
          const memoryId = newId(t) as MemoryId
          ids.push(memoryId)
          push(newId(t), {
            _tag: "MemoryAdded",
            memoryId,
            content: m.content,
            category: m.category,
            scope: m.project === null ? "global" : "project",
            project: m.project,
            tags: m.tags,
            source: m.source ?? "imported",
            status: "confirmed",
            confidence: 0.8
          })
        } else if (shape.recallShare !== undefined && r.chance(shape.recallShare)) {
          push(newId(t), {
            _tag: "MemoriesRecalled",
            query: r.pick(["how do I deploy", "run the tests", "database migrations", "which node version", "fix the build"]),
            memoryIds: [...new Set([r.pick(ids), r.pick(ids), r.pick(ids)])],
            project: null,
            ...(r.chance(0.5) ? { task: `task-${r.int(1, 50_000)}` } : {})
          })
        } else {
          const first = r.pick(ids)
          const more = r.chance(0.2) ? [r.pick(ids)].filter((id) => id !== first) : []
          const outcome: Outcome = r.chance(0.6) ? "worked" : r.chance(0.6) ? "failed" : "partial"
          push(newId(t), {
            _tag: "OutcomeRecorded",
            memoryIds: [first, ...more],
            outcome,
            ...(r.chance(0.5) ? { task: `task-${r.int(1, 50_000)}` } : {})
          })
        }
      }
      store.writeOrThrow((tx) => tx.append(batch))
      written += batch.length
      if (written % 100_000 === 0) onProgress?.(written)
    }
    return written
  } finally {
    store.close()
  }
}

