/**
 * Cues searched by their distinct texts (cue-text-matches.ts) get exactly what FTS5's `bm25()`
 * gives them, over generated cues that repeat, in two places, after some memories' cues were
 * rewritten (deleted rows stay in FTS5's statistics, which the texts' scores must follow): the
 * same relevance, as the same double, for the same number of cues, and the same cues wherever
 * their relevance is not the one at the cut.
 */
import * as fc from "fast-check"
import { expect, test } from "vitest"
import type { MemoryId } from "../../src/domain/ids.js"
import type { CueState } from "../../src/projections/cue-state.js"
import { queryWords, ftsMatchExpression } from "../../src/retrieval/fts-query.js"
import { cueKeyRange, PLACE_SPAN, writeCueState } from "../../src/store/sqlite/projections/cues.js"
import { bestCuesByText, prepareCueTextQuery, searchedByTexts } from "../../src/store/sqlite/retrieval/cue-text-matches.js"
import { withTempStores } from "../support/temp-store.js"

const WORDS = ["deploy", "tests", "testing", "run", "database", "migrations", "node", "version", "fix", "build", "cache", "the", "how", "fooBar", "x"]
const PROJECTS = [null, "github.com/acme/app"] as const

const textArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((w) => w.join(" "))

const stateOf = (memoryId: string, texts: ReadonlyArray<string>, project: string | null): CueState => ({
  memoryId: memoryId as MemoryId,
  cues: texts.map((text, i) => ({
    text,
    norm: text.toLowerCase(),
    project,
    weight: 1 + i,
    anchorMs: 0,
    origin: "test",
    outcomeEventId: "o",
    recallEventId: "r",
    learnedAt: "2030-01-01T00:00:00.000Z"
  })),
  dropped: []
})

test("cues scored by their texts get FTS5's BM25, as the same doubles", () => {
  fc.assert(
    fc.property(
      fc.array(textArb, { minLength: 1, maxLength: 5 }),
      fc.array(fc.tuple(fc.nat(40), fc.nat(4), fc.nat(1)), { minLength: 1, maxLength: 120 }),
      fc.array(fc.nat(40), { maxLength: 10 }),
      fc.array(textArb, { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 1, max: 30 }),
      (texts, cues, rewritten, queries, count) =>
        withTempStores((open) => {
          const db = open().db
          const byMemory = new Map<number, { texts: string[]; project: string | null }>()
          for (const [memory, text, place] of cues) {
            const m = byMemory.get(memory) ?? { texts: [], project: PROJECTS[place]! }
            if (m.texts.length < 8) m.texts.push(texts[text % texts.length]!)
            byMemory.set(memory, m)
          }
          db.transaction(() => {
            for (const [memory, m] of byMemory) writeCueState(db, `m${memory}` as MemoryId, stateOf(`m${memory}`, m.texts, m.project))
            for (const memory of rewritten) {
              const m = byMemory.get(memory)
              if (m !== undefined) writeCueState(db, `m${memory}` as MemoryId, stateOf(`m${memory}`, m.texts.slice(1), m.project))
            }
          })()
          const fts = db.prepare(
            `SELECT rowid AS key, -bm25(cues_fts, 1, 0.5, 0) AS relevance FROM cues_fts
              WHERE cues_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY relevance DESC LIMIT ?`
          )
          for (const query of queries) {
            const words = ftsMatchExpression(query)
            const q = prepareCueTextQuery(db, queryWords(query), [1, 0.5])
            if (words === undefined || q === undefined) continue
            for (const project of PROJECTS) {
              const range = cueKeyRange(db, project)
              if (range === undefined) continue
              const byText = bestCuesByText(db, q, words, range, count)
              const byFts = fts.all(`{text code} : (${words})`, range.first, range.last, count) as { key: number; relevance: number }[]
              // Every place of these cues repeats or not at random; both ways are held to FTS5 here.
              expect(typeof searchedByTexts(db, range.first / PLACE_SPAN)).toBe("boolean")
              expect(byText).toBeDefined()
              expect(byText!.map((m) => m.relevance)).toEqual(byFts.map((m) => m.relevance))
              const cut = byFts.at(-1)?.relevance
              const above = (ms: { key: number; relevance: number }[]) => ms.filter((m) => m.relevance !== cut).map((m) => m.key).sort((a, b) => a - b)
              expect(above(byText!)).toEqual(above(byFts))
            }
          }
        })
    ),
    { numRuns: 60 }
  )
})
