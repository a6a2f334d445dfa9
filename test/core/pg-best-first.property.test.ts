/**
 * PostgreSQL's keyword search read best first (keyword-index.ts): for any query, the best rows
 * it answers score exactly what reading every row gives, even when the index's reference
 * length has drifted from the collection's average and a column weighs more than 1, the two
 * things its bound has to allow for; and it is tried only when at most one term may be left
 * unread, since with two its bound is out of reach.
 */
import * as fc from "fast-check"
import { afterAll, beforeAll, expect, it } from "vitest"
import { indexDocuments, type IndexedDocument } from "../../src/store/postgres/keyword-index.js"
import { bm25Args, bm25Sql, canSettleBestFirst, exactTop, JOINED_TERMS_MAX, queryStatistics, type Reading } from "../../src/store/postgres/keyword-search.js"
import { DROP_PROJECTIONS, PROJECTION_DDL } from "../../src/store/postgres/schema.js"
import { SyncPg } from "../../src/store/postgres/sync-client.js"
import { describePostgres, dropTestDatabases, testPostgres } from "../support/postgres.js"

const PLACES = ["here", "there"]
// Word i is in about 1/(i+1) of the documents: a few words in most, most words in a few.
const WORDS = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`)
const WEIGHTS = [1, 1, 0.5, 0.25, 0.5]
/** A column weighing more than the impacts allow for: the bound has to stretch. */
const HEAVY = [2, 1, 0.5, 0.25, 0.5]
const COUNT = 30

/** A small deterministic generator, so that the collection is the same on every run. */
const lcg = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)

const documents = (from: number, n: number, longest: number, random: () => number): IndexedDocument[] =>
  Array.from({ length: n }, (_, i) => {
    const length = 1 + Math.floor(random() * longest)
    const words = Array.from({ length }, () => WORDS[Math.min(WORDS.length - 1, Math.max(0, Math.floor(1 / (random() + 0.025)) - 1))]!)
    const half = Math.ceil(words.length / 2)
    return {
      key: from + i,
      columns: [words.slice(0, half).join(" "), words.slice(half).join(" "), random() < 0.2 ? words[0]! : "", "", ""],
      place: PLACES[i % PLACES.length]!,
      category: "c",
      extraTokens: 2
    }
  })

it("reads best first only when at most one of the query's terms may have rows left unread", () => {
  const statistics = { df: new Map([["common", 900], ["usual", 40], ["rare", 39]]), docs: 1_000, tokens: 20_000, refAvg: 20 }
  expect(canSettleBestFirst({ terms: ["common", "rare"] }, statistics, 40)).toBe(true)
  expect(canSettleBestFirst({ terms: ["common", "common"] }, statistics, 40)).toBe(true)
  expect(canSettleBestFirst({ terms: ["common", "usual"] }, statistics, 40)).toBe(false)
  expect(canSettleBestFirst({ terms: ["common", "usual", "rare"] }, statistics, 40)).toBe(false)
})

describePostgres("keyword search read best first", () => {
  let db: SyncPg

  beforeAll(async () => {
    db = SyncPg.connect((await testPostgres()).url)
    db.execute(DROP_PROJECTIONS + PROJECTION_DDL)
    const random = lcg(7)
    // The first documents set the reference length; those added later are longer on average.
    indexDocuments(db, "memories", documents(1, 2_500, 6, random))
    for (let from = 2_501; from < 4_000; from += 500) indexDocuments(db, "memories", documents(from, 500, 12, random))
    db.flush()
  }, 120_000)

  afterAll(async () => {
    db?.close()
    await dropTestDatabases()
  })

  it("answers the same scores as reading every row", () => {
    let stood = 0
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
        fc.subarray(PLACES, { minLength: 1 }),
        fc.constantFrom(WEIGHTS, HEAVY),
        (terms, places, weights) => {
          const stats = queryStatistics(db, "memories", { terms })
          const run = (reading: Reading) =>
            db.query<{ key: number; relevance: number; reach: number }>(bm25Sql("memories", weights, "TRUE", reading, terms.length), bm25Args({ terms }, stats, places, COUNT))
          const everyRow = run("all")
          const readings: Reading[] = []
          const bestFirst = exactTop(COUNT, stats, weights, (reading) => (readings.push(reading), run(reading)), 0)
          if (readings.length === 1) stood++
          expect(bestFirst.map((r) => r.relevance.toFixed(9))).toEqual(everyRow.map((r) => r.relevance.toFixed(9)))
        }
      ),
      { numRuns: 200 }
    )
    // The answers read best first stood without reading every row often enough for the property to be about them.
    expect(stood).toBeGreaterThan(40)
  })

  it("sums a few terms' shares by joining their rows exactly as grouping every row does, a term given twice counted twice", () => {
    let found = 0
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: JOINED_TERMS_MAX }),
        fc.subarray(PLACES, { minLength: 1 }),
        fc.constantFrom(WEIGHTS, HEAVY),
        (terms, places, weights) => {
          const args = bm25Args({ terms }, queryStatistics(db, "memories", { terms }), places, COUNT)
          const joined = db.query<{ key: number; relevance: number }>(bm25Sql("memories", weights, "TRUE", "all", terms.length), args)
          // Told of more terms than are joined, the same query groups every row by key.
          const grouped = db.query<{ key: number; relevance: number }>(bm25Sql("memories", weights, "TRUE", "all", JOINED_TERMS_MAX + 1), args)
          if (joined.length > 0) found++
          expect(joined.map((r) => [r.key, r.relevance])).toEqual(grouped.map((r) => [r.key, r.relevance]))
        }
      ),
      { numRuns: 100 }
    )
    expect(found).toBeGreaterThan(50)
  })
})
