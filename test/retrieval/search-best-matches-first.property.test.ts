/**
 * Keyword search ranks its best matches first and reads every candidate only when the ones it
 * did not read could matter (ranking-run.ts, rankBestMatchesFirst). Over generated stores with
 * many matches, many ties (the same words in another order score the same), many gated
 * memories and probation, its results are exactly those of ranking every candidate, as `why`
 * does: ids, order, scores, terms and probation.
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { DEFAULT_CONFIG } from "../../src/config.js"
import type { Outcome } from "../../src/domain/vocabulary.js"
import { runRanking, runSearch } from "../../src/retrieval/ranking-run.js"
import { added, outcome } from "../support/events.js"
import { eventId, memoryId } from "../support/ids.js"
import { withTempStores } from "../support/temp-store.js"
import type { NewEvent } from "../../src/events/log.js"
import { sqliteReads } from "../../src/store/sqlite/sqlite-reads.js"

const WORDS = ["deploy", "test", "cache", "build", "retry"]
const PROJECTS = ["github.com/a/one", null]
const DAY = 86_400_000
const T0 = Date.parse("2026-01-01T00:00:00.000Z")
const NOW = T0 + 300 * DAY

const storeArb = fc.record({
  memories: fc.array(
    fc.record({
      words: fc.shuffledSubarray(WORDS, { minLength: 1, maxLength: 3 }),
      project: fc.constantFrom(...PROJECTS),
      ageDays: fc.integer({ min: 0, max: 200 }),
      confidence: fc.constantFrom(0.5, 0.9)
    }),
    { minLength: 20, maxLength: 120 }
  ),
  // Reports per memory: none, one success, one failure, or two failures (gated): enough gated
  // memories that the best matches read first often leave the pool short.
  records: fc.array(fc.constantFrom<ReadonlyArray<Outcome>>([], [], ["worked"], ["failed"], ["failed", "failed"], ["failed", "failed"], ["partial", "failed", "failed"]), {
    minLength: 120,
    maxLength: 120
  }),
  queries: fc.array(fc.shuffledSubarray(WORDS, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 4 }),
  limit: fc.integer({ min: 1, max: 6 }),
  project: fc.constantFrom(...PROJECTS)
})

describe("keyword search from its best matches first", () => {
  it("returns what ranking every candidate returns", () => {
    fc.assert(
      fc.property(storeArb, (spec) =>
        withTempStores((open) => {
          const store = open()
          let n = 0
          const at = (ms: number) => new Date(ms).toISOString()
          const events: NewEvent[] = spec.memories.map((m, i) => ({
            id: eventId(++n),
            recordedAt: at(T0 + (200 - m.ageDays) * DAY),
            origin: "test",
            agent: "test",
            event: added(memoryId(i + 1), `${m.words.join(" ")}.`, {
              scope: m.project === null ? "global" : "project",
              project: m.project,
              confidence: m.confidence
            })
          }))
          spec.memories.forEach((_, i) => {
            spec.records[i]!.forEach((result, day) => {
              const event = outcome([memoryId(i + 1)], result)
              events.push({ id: eventId(++n), recordedAt: at(T0 + (250 + day) * DAY), origin: "test", agent: "test", event })
            })
          })
          store.writeOrThrow((tx) => tx.append(events))
          for (const words of spec.queries) {
            const request = { query: words.join(" "), limit: spec.limit, project: spec.project }
            const view = (results: ReadonlyArray<{ memory: { id: string }; rank: number; score: number; terms: unknown; probation: boolean }>) =>
              results.map((r) => ({ id: r.memory.id, rank: r.rank, score: r.score, terms: r.terms, probation: r.probation }))
            const searched = store.read((db) => runSearch(sqliteReads(db), request, NOW, DEFAULT_CONFIG))
            const ranked = store.read((db) => runRanking(sqliteReads(db), request, NOW, DEFAULT_CONFIG))
            expect(view(searched.results)).toEqual(view(ranked.ranking.results))
          }
        })
      ),
      { numRuns: 60 }
    )
  })
})
