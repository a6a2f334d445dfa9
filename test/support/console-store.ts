/**
 * A store for the console's tests and screenshots, written through the store's own append path
 * (LedgerStore with tx.append, which keeps the projections) with times in the past: memories
 * added months ago, outcomes reported then and since (so records have decayed), recalls and
 * outcomes under tasks, from several conversations, one of them to be forgotten.
 */
import { Either } from "effect"
import { DEFAULT_CONFIG } from "../../src/config.js"
import { makeIdFactory, type MemoryId } from "../../src/domain/ids.js"
import type { Category, Outcome } from "../../src/domain/vocabulary.js"
import type { NewEvent } from "../../src/events/log.js"
import { LedgerStore } from "../../src/store/sqlite/ledger-store.js"

const DAY_MS = 86_400_000

export const CONSOLE_ORIGINS = { claude: "claude-code:session/4f1c", codex: "codex:thread/9a2e", cursor: "cursor:chat/77b0" } as const

const MEMORIES: ReadonlyArray<{ content: string; category: Category; tags: string[] }> = [
  { content: "Deploy with make deploy ENV=prod; it runs the migrations first.", category: "command", tags: ["deploy"] },
  { content: "Deploy previews with fly deploy --strategy bluegreen.", category: "command", tags: ["deploy", "fly"] },
  { content: "Run npm test before every push; CI runs the same suite.", category: "convention", tags: ["testing"] },
  { content: "Postgres 16 is required: the JSON path queries need it.", category: "gotcha", tags: ["db"] },
  { content: "The deploy script fails on macOS without GNU sed; use gsed.", category: "workaround", tags: ["deploy", "macos"] },
  { content: "Use pnpm, not npm, in the web app folder.", category: "convention", tags: ["tooling"] },
  { content: "API handlers stay thin: decode, call one service, encode.", category: "architecture", tags: ["api"] },
  { content: "Rotate the staging database password every 90 days.", category: "decision", tags: ["db", "security"] }
]

/** Writes the store at `db` as of `nowMs`; returns the memories' ids in the order above. */
export const buildConsoleStore = (db: string, nowMs: number): MemoryId[] => {
  const newId = makeIdFactory()
  const store = Either.getOrThrow(LedgerStore.open(db, DEFAULT_CONFIG))
  const ago = (days: number) => nowMs - days * DAY_MS
  const at = (ms: number) => new Date(ms).toISOString()
  const events: NewEvent[] = []
  const ids: MemoryId[] = []
  const push = (ms: number, origin: string, event: NewEvent["event"]) =>
    events.push({ id: newId(ms), recordedAt: at(ms), origin, agent: origin.slice(0, origin.indexOf(":")), event })
  MEMORIES.forEach((m, i) => {
    const ms = ago(200 - i * 10)
    const memoryId = newId(ms) as MemoryId
    ids.push(memoryId)
    const origin = [CONSOLE_ORIGINS.claude, CONSOLE_ORIGINS.codex, CONSOLE_ORIGINS.cursor][i % 3]!
    push(ms, origin, { _tag: "MemoryAdded", memoryId, content: m.content, category: m.category, scope: "global", project: null, tags: m.tags, source: "explicit", status: "confirmed", confidence: 0.9 })
  })
  const outcome = (days: number, origin: string, memory: number, result: Outcome, task?: string) =>
    push(ago(days), origin, { _tag: "OutcomeRecorded", memoryIds: [ids[memory]!], outcome: result, ...(task === undefined ? {} : { task }) })
  const recall = (days: number, origin: string, query: string, memories: number[], task: string) =>
    push(ago(days), origin, { _tag: "MemoriesRecalled", query, memoryIds: memories.map((m) => ids[m]!), task, project: null })
  // The first deploy memory worked long ago and failed lately; the preview one works; the sed one failed often.
  for (const days of [150, 140, 120]) outcome(days, CONSOLE_ORIGINS.claude, 0, "worked")
  for (const days of [20, 12, 6]) outcome(days, CONSOLE_ORIGINS.codex, 0, "failed")
  for (const days of [90, 40, 25, 9, 2]) outcome(days, CONSOLE_ORIGINS.claude, 1, "worked")
  for (const days of [60, 30, 8, 3]) outcome(days, CONSOLE_ORIGINS.cursor, 4, "failed")
  outcome(15, CONSOLE_ORIGINS.codex, 2, "partial")
  recall(5, CONSOLE_ORIGINS.claude, "how do I deploy", [1, 0], "beads:bd-12")
  outcome(4.9, CONSOLE_ORIGINS.claude, 1, "worked", "beads:bd-12")
  recall(3, CONSOLE_ORIGINS.codex, "which postgres version", [3], "beads:bd-15")
  outcome(2.9, CONSOLE_ORIGINS.codex, 3, "worked", "beads:bd-15")
  recall(1, CONSOLE_ORIGINS.cursor, "deploy on my mac", [4, 0], "claude:todo-3")
  // The log is appended in time order, as agents would have appended it.
  events.sort((a, b) => a.recordedAt.localeCompare(b.recordedAt))
  try {
    store.writeOrThrow((tx) => tx.append(events))
  } finally {
    store.close()
  }
  return ids
}
